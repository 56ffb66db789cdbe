package dev.pastebin.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates template values to strings, as CloudFormation would at deploy time: literals, {@code Ref},
 * {@code Fn::GetAtt}, {@code Fn::Sub} and {@code Fn::Join}, with {@link ResourceAttributes} answering for
 * the resources. A value that needs anything else (or an attribute nobody can answer) is unresolved.
 */
public final class TemplateValues {

    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!][^}]*)}");

    private TemplateValues() {}

    public static Optional<String> resolve(Object value, ResourceAttributes resources) {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return Optional.of(String.valueOf(value));
        }
        if (!(value instanceof Map<?, ?> m) || m.size() != 1) {
            return Optional.empty();
        }
        Map.Entry<?, ?> intrinsic = m.entrySet().iterator().next();
        Object argument = intrinsic.getValue();
        return switch (String.valueOf(intrinsic.getKey())) {
            case "Ref" -> argument instanceof String id ? resources.ref(id) : Optional.empty();
            case "Fn::GetAtt" ->
                argument instanceof List<?> l && l.size() == 2
                        ? resources.getAtt(String.valueOf(l.get(0)), String.valueOf(l.get(1)))
                        : Optional.empty();
            case "Fn::Sub" -> argument instanceof String s ? sub(s, resources) : Optional.empty();
            case "Fn::Join" -> join(argument, resources);
            default -> Optional.empty();
        };
    }

    /**
     * Every variable whose value resolves; the names of those that do not go to {@code unresolved}
     * (a variable CloudFormation could set but this place cannot is better left out than set wrong).
     */
    public static Map<String, String> resolveAll(
            Map<String, Object> variables, ResourceAttributes resources, List<String> unresolved) {
        Map<String, String> out = new LinkedHashMap<>();
        variables.forEach((name, value) ->
                resolve(value, resources).ifPresentOrElse(v -> out.put(name, v), () -> unresolved.add(name)));
        return out;
    }

    private static Optional<String> sub(String text, ResourceAttributes resources) {
        Matcher m = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String variable = m.group(1);
            int dot = variable.indexOf('.');
            Optional<String> v = dot < 0
                    ? resources.ref(variable)
                    : resources.getAtt(variable.substring(0, dot), variable.substring(dot + 1));
            if (v.isEmpty()) {
                return Optional.empty();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v.get()));
        }
        m.appendTail(out);
        return Optional.of(out.toString().replace("${!", "${"));
    }

    private static Optional<String> join(Object argument, ResourceAttributes resources) {
        if (!(argument instanceof List<?> l)
                || l.size() != 2
                || !(l.get(0) instanceof String delimiter)
                || !(l.get(1) instanceof List<?> parts)) {
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        for (Object part : parts) {
            Optional<String> v = resolve(part, resources);
            if (v.isEmpty()) {
                return Optional.empty();
            }
            values.add(v.get());
        }
        return Optional.of(String.join(delimiter, values));
    }
}
