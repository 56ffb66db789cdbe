package dev.pastebin.infra.template;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.Yaml;

/**
 * The template as CloudFormation sees it for one set of answers to its parameters: which conditions hold, which
 * resources exist, what a value with {@code Fn::If} resolves to, and whether the Rules accept the answers. The sets
 * are infra/template-parameter-sets.json's, which validate-template.sh lints too.
 */
final class ParameterSet {

    static final String REGION = "us-east-1";

    private final CloudFormationTemplate template;
    private final Map<String, String> values;

    private ParameterSet(CloudFormationTemplate template, Map<String, String> values) {
        this.template = template;
        this.values = values;
    }

    /** The named set of infra/template-parameter-sets.json ("default", "existing"). */
    static ParameterSet named(CloudFormationTemplate template, String name) {
        try {
            Map<String, Map<String, String>> sets =
                    new Yaml().load(Files.readString(InfraTemplate.INFRA.resolve("template-parameter-sets.json")));
            Map<String, String> set = sets.get(name);
            if (set == null) {
                throw new IllegalArgumentException("no parameter set " + name + " in " + sets.keySet());
            }
            return of(template, set);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template's Defaults, with {@code answers} in their place. */
    static ParameterSet of(CloudFormationTemplate template, Map<String, String> answers) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, p) -> {
            Object value = CloudFormationTemplate.mapping(p, name).get("Default");
            if (value != null) {
                values.put(name, String.valueOf(value));
            }
        });
        values.putAll(answers);
        return new ParameterSet(template, values);
    }

    ParameterSet with(Map<String, String> answers) {
        Map<String, String> changed = new LinkedHashMap<>(values);
        changed.putAll(answers);
        return new ParameterSet(template, changed);
    }

    boolean condition(String name) {
        Object definition = CloudFormationTemplate.mapping(template.root().get("Conditions"), "Conditions")
                .get(name);
        if (definition == null) {
            throw new IllegalArgumentException("no condition " + name);
        }
        return truth(definition);
    }

    /** The resources a stack created with these answers has (a resource's Condition holds, or it has none). */
    Set<String> resources() {
        Set<String> ids = new TreeSet<>();
        template.resources().forEach((id, r) -> {
            Object condition = CloudFormationTemplate.mapping(r, id).get("Condition");
            if (condition == null || condition(String.valueOf(condition))) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** {@code value} with every Fn::If decided and every element that became AWS::NoValue dropped. */
    Object decide(Object value) {
        if (value instanceof Map<?, ?> m) {
            if (m.size() == 1 && m.get("Fn::If") instanceof List<?> branches) {
                return decide(condition(String.valueOf(branches.get(0))) ? branches.get(1) : branches.get(2));
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                Object decided = decide(v);
                if (!isNoValue(decided)) {
                    out.put(k, decided);
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object element : list) {
                Object decided = decide(element);
                if (!isNoValue(decided)) {
                    out.add(decided);
                }
            }
            return out;
        }
        return value;
    }

    /** The descriptions of the Rules' assertions these answers fail (none: CloudFormation accepts them). */
    List<String> failedRules() {
        List<String> failed = new ArrayList<>();
        CloudFormationTemplate.mapping(template.root().getOrDefault("Rules", Map.of()), "Rules")
                .forEach((name, r) -> {
                    Map<String, Object> rule = CloudFormationTemplate.mapping(r, name);
                    if (rule.containsKey("RuleCondition") && !truth(rule.get("RuleCondition"))) {
                        return;
                    }
                    for (Object a : (List<?>) rule.get("Assertions")) {
                        Map<String, Object> assertion = CloudFormationTemplate.mapping(a, name);
                        if (!truth(assertion.get("Assert"))) {
                            failed.add(name + ": " + assertion.get("AssertDescription"));
                        }
                    }
                });
        return failed;
    }

    private static boolean isNoValue(Object value) {
        return value instanceof Map<?, ?> m && m.size() == 1 && "AWS::NoValue".equals(m.get("Ref"));
    }

    private boolean truth(Object expression) {
        Map<String, Object> m = CloudFormationTemplate.mapping(expression, "condition");
        Map.Entry<String, Object> f = m.entrySet().iterator().next();
        List<?> args = f.getValue() instanceof List<?> l ? l : List.of(f.getValue());
        return switch (f.getKey()) {
            case "Condition" -> condition(String.valueOf(f.getValue()));
            case "Fn::Not" -> !truth(args.get(0));
            case "Fn::And" -> args.stream().allMatch(this::truth);
            case "Fn::Or" -> args.stream().anyMatch(this::truth);
            case "Fn::Equals" -> value(args.get(0)).equals(value(args.get(1)));
            case "Fn::Contains" -> values(args.get(0)).contains(value(args.get(1)));
            default -> throw new IllegalArgumentException("cannot evaluate " + f.getKey());
        };
    }

    private List<String> values(Object value) {
        Object resolved = value instanceof Map<?, ?> m && m.containsKey("Ref") ? value(value) : value;
        if (resolved instanceof List<?> list) {
            return list.stream().map(this::value).toList();
        }
        // a CommaDelimitedList: "" is the list [""]
        return List.of(String.valueOf(resolved).split(",", -1));
    }

    private String value(Object value) {
        if (value instanceof Map<?, ?> m && m.get("Ref") instanceof String name) {
            if (name.equals("AWS::Region")) {
                return REGION;
            }
            String v = values.get(name);
            if (v == null) {
                throw new IllegalArgumentException("parameter " + name + " has no value");
            }
            return v;
        }
        return String.valueOf(value);
    }
}
