package dev.pastebin.local.template;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the {@code AWS::LanguageExtensions} transform does to a value before SAM's transform reads it: an
 * {@code Fn::If} whose condition depends on parameters alone becomes the branch the parameters choose, and a
 * {@code Ref: AWS::NoValue} that results drops its key or list item. SAM refuses intrinsics in places such as an
 * HTTP API's {@code Auth} (aws/serverless-application-model#1859); with this transform listed first CloudFormation
 * resolves them before SAM runs, and this class does the same for the local runtime, so that a route guarded on AWS
 * is guarded here and an open one is open.
 *
 * <p>The conditions are evaluated from the template's {@code Conditions} with {@code Fn::Equals}, {@code Fn::Not},
 * {@code Fn::And}, {@code Fn::Or} and {@code Condition}, over literals and {@code Ref}s of parameters (their override
 * or Default). A condition that needs anything else (a pseudo parameter, a resource) is refused with its name: the
 * transform would leave such an {@code Fn::If} to CloudFormation, which SAM then refuses too.
 */
public final class LanguageExtensions {

    static final String TRANSFORM = "AWS::LanguageExtensions";
    private static final Map<String, String> NO_VALUE = Map.of("Ref", "AWS::NoValue");

    private final CloudFormationTemplate template;
    private final Map<String, Boolean> evaluated = new LinkedHashMap<>();
    /** Leave an {@code Fn::If} whose condition needs more than parameters, rather than refuse it. */
    private boolean lenient;

    LanguageExtensions(CloudFormationTemplate template) {
        this.template = template;
    }

    /**
     * The template's root as the transform hands it to SAM's: every {@code Fn::If} of its Resources resolved whose
     * condition the parameters decide (others left for CloudFormation, as the transform leaves them), and the
     * transform itself dropped from {@code Transform}. For a CloudFormation that does not run the transform (LocalStack's
     * community edition), so that SAM's transform there reads what it would read on AWS.
     */
    public static Map<String, Object> expandedForSam(CloudFormationTemplate template, Map<String, Object> root) {
        Map<String, Object> expanded = new LinkedHashMap<>(root);
        if (root.get("Transform") instanceof List<?> transforms) {
            expanded.put(
                    "Transform",
                    transforms.stream().filter(t -> !TRANSFORM.equals(t)).toList());
        }
        LanguageExtensions extensions = new LanguageExtensions(template);
        extensions.lenient = true;
        expanded.put("Resources", extensions.resolve(root.get("Resources")));
        return expanded;
    }

    /** Whether the template lists the transform (alone, or in its list of transforms). */
    static boolean declaredBy(CloudFormationTemplate template) {
        Object transform = template.root().get("Transform");
        return TRANSFORM.equals(transform) || (transform instanceof List<?> list && list.contains(TRANSFORM));
    }

    /** {@code value} with every {@code Fn::If} resolved; {@code null} when it resolves to {@code AWS::NoValue}. */
    Object resolve(Object value) {
        if (value instanceof Map<?, ?> m && m.size() == 1 && m.containsKey("Fn::If")) {
            if (!(m.get("Fn::If") instanceof List<?> branches) || branches.size() != 3) {
                throw new IllegalArgumentException("Fn::If takes [condition, then, else], got " + m.get("Fn::If"));
            }
            String name = String.valueOf(branches.get(0));
            if (lenient && !decidedByParameters(name)) {
                return Map.of(
                        "Fn::If", List.of(name, resolveOrNoValue(branches.get(1)), resolveOrNoValue(branches.get(2))));
            }
            return resolve(condition(name) ? branches.get(1) : branches.get(2));
        }
        if (NO_VALUE.equals(value)) {
            return null;
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                Object resolved = resolve(v);
                if (resolved != null) {
                    out.put(k, resolved);
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.stream().map(this::resolve).filter(Objects::nonNull).forEach(out::add);
            return out;
        }
        return value;
    }

    private boolean decidedByParameters(String name) {
        try {
            condition(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private Object resolveOrNoValue(Object branch) {
        Object resolved = resolve(branch);
        return resolved == null ? NO_VALUE : resolved;
    }

    /** The named condition's value with the parameters' overrides or Defaults. */
    boolean condition(String name) {
        return condition(name, new HashSet<>());
    }

    private boolean condition(String name, Set<String> visiting) {
        Boolean known = evaluated.get(name);
        if (known != null) {
            return known;
        }
        Object definition = CloudFormationTemplate.mapping(
                        Objects.requireNonNullElse(template.root().get("Conditions"), Map.of()), "Conditions")
                .get(name);
        if (definition == null) {
            throw new IllegalArgumentException("Fn::If names the condition " + name + ", which Conditions lacks");
        }
        if (!visiting.add(name)) {
            throw new IllegalArgumentException("the condition " + name + " refers to itself");
        }
        boolean value = truth(definition, name, visiting);
        evaluated.put(name, value);
        return value;
    }

    private boolean truth(Object expression, String name, Set<String> visiting) {
        Map<String, Object> function = CloudFormationTemplate.mapping(expression, "condition " + name);
        if (function.size() != 1) {
            throw unevaluable(name, expression);
        }
        Map.Entry<String, Object> only = function.entrySet().iterator().next();
        return switch (only.getKey()) {
            case "Condition" -> condition(String.valueOf(only.getValue()), visiting);
            case "Fn::Not" -> !truth(single(only.getValue(), name), name, visiting);
            case "Fn::And" -> operands(only.getValue(), name).stream().allMatch(e -> truth(e, name, visiting));
            case "Fn::Or" -> operands(only.getValue(), name).stream().anyMatch(e -> truth(e, name, visiting));
            case "Fn::Equals" -> {
                List<?> pair = operands(only.getValue(), name);
                if (pair.size() != 2) {
                    throw unevaluable(name, expression);
                }
                yield scalar(pair.get(0), name).equals(scalar(pair.get(1), name));
            }
            default -> throw unevaluable(name, expression);
        };
    }

    private String scalar(Object value, String name) {
        Object resolved = template.resolveParameters(value);
        if (resolved instanceof String || resolved instanceof Number || resolved instanceof Boolean) {
            return String.valueOf(resolved);
        }
        throw unevaluable(name, value);
    }

    private static List<?> operands(Object value, String name) {
        if (!(value instanceof List<?> list)) {
            throw unevaluable(name, value);
        }
        return list;
    }

    private static Object single(Object value, String name) {
        List<?> list = operands(value, name);
        if (list.size() != 1) {
            throw unevaluable(name, value);
        }
        return list.get(0);
    }

    private static IllegalArgumentException unevaluable(String name, Object expression) {
        return new IllegalArgumentException("the condition " + name + " needs more than parameters to evaluate ("
                + expression + "): the local runtime cannot tell which branch AWS would take");
    }
}
