package dev.pastebin.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The functions of a SAM template, read the way SAM reads them (Globals.Function merged into each function). */
public record SamTemplate(Path file, List<FunctionDefinition> functions) {

    private static final Pattern RATE = Pattern.compile("rate\\(\\s*(\\d+)\\s+(minutes?|hours?|days?)\\s*\\)");
    /** Lambda's defaults when neither the function nor Globals set them. */
    private static final int DEFAULT_MEMORY_MB = 128;
    private static final int DEFAULT_TIMEOUT_SECONDS = 3;

    public static SamTemplate read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the SAM template " + file + ": " + e.getMessage(), e);
        }
        if (!(CloudFormationYaml.load(text) instanceof Map<?, ?> root)) {
            throw new IllegalArgumentException(file + " is not a YAML mapping");
        }
        Map<?, ?> parameters = map(root.get("Parameters"));
        Map<?, ?> globals = resolveParameters(map(map(root.get("Globals")).get("Function")), parameters);
        Path baseDir = file.toAbsolutePath().getParent();
        List<FunctionDefinition> functions = new ArrayList<>();
        map(root.get("Resources")).forEach((id, resource) -> {
            Map<?, ?> r = map(resource);
            if ("AWS::Serverless::Function".equals(r.get("Type"))) {
                functions.add(function(String.valueOf(id), resolveParameters(map(r.get("Properties")), parameters),
                        globals, baseDir, file));
            }
        });
        return new SamTemplate(file, List.copyOf(functions));
    }

    public FunctionDefinition function(String logicalId) {
        return functions.stream().filter(f -> f.logicalId().equals(logicalId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no AWS::Serverless::Function '" + logicalId + "' in "
                        + file + "; the template has " + functions.stream().map(FunctionDefinition::logicalId).toList()));
    }

    private static FunctionDefinition function(String id, Map<?, ?> props, Map<?, ?> globals, Path baseDir, Path file) {
        String handler = string(props, globals, "Handler");
        Object codeUri = props.containsKey("CodeUri") ? props.get("CodeUri") : globals.get("CodeUri");
        if (handler == null || !(codeUri instanceof String code)) {
            throw new IllegalArgumentException(id + " in " + file + " needs a Handler and a literal CodeUri");
        }
        int memory = integer(props, globals, "MemorySize", DEFAULT_MEMORY_MB);
        int timeout = integer(props, globals, "Timeout", DEFAULT_TIMEOUT_SECONDS);
        Map<String, String> env = new LinkedHashMap<>();
        literalVariables(globals, env);
        literalVariables(props, env);

        List<FunctionDefinition.HttpRoute> routes = new ArrayList<>();
        List<FunctionDefinition.SqsTrigger> sqs = new ArrayList<>();
        List<FunctionDefinition.ScheduleTrigger> schedules = new ArrayList<>();
        map(props.get("Events")).forEach((name, event) -> {
            String eventName = String.valueOf(name);
            Map<?, ?> e = map(event);
            Map<?, ?> p = map(e.get("Properties"));
            switch (String.valueOf(e.get("Type"))) {
                case "HttpApi" -> routes.add(new FunctionDefinition.HttpRoute(eventName,
                        String.valueOf(p.containsKey("Method") ? p.get("Method") : "ANY").toUpperCase(Locale.ROOT),
                        p.containsKey("Path") ? String.valueOf(p.get("Path")) : "$default"));
                case "SQS" -> sqs.add(new FunctionDefinition.SqsTrigger(eventName, p.get("Queue"),
                        p.get("BatchSize") instanceof Number n ? n.intValue() : 10,
                        Duration.ofSeconds(p.get("MaximumBatchingWindowInSeconds") instanceof Number n ? n.longValue() : 0),
                        p.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures"),
                        !Boolean.FALSE.equals(p.get("Enabled"))));
                case "Schedule" -> schedules.add(schedule(eventName, p.get("Schedule"), p.get("Input"),
                        "DISABLED".equals(p.get("State")) ? Boolean.FALSE : p.get("Enabled")));
                case "ScheduleV2" -> schedules.add(schedule(eventName, p.get("ScheduleExpression"), p.get("Input"),
                        "DISABLED".equals(p.get("State")) ? Boolean.FALSE : null));
                default -> {
                    // Other event types (S3, Api, ...) are not emulated locally; the function stays invocable.
                }
            }
        });
        return new FunctionDefinition(id, handler, String.valueOf(props.containsKey("Runtime") ? props.get("Runtime")
                : globals.get("Runtime")), baseDir.resolve(code).normalize(), memory, Duration.ofSeconds(timeout),
                Map.copyOf(env), List.copyOf(routes), List.copyOf(sqs), List.copyOf(schedules));
    }

    private static FunctionDefinition.ScheduleTrigger schedule(String name, Object expression, Object input, Object enabled) {
        if (!(expression instanceof String expr)) {
            throw new IllegalArgumentException("schedule event " + name + " needs a literal schedule expression, got " + expression);
        }
        return new FunctionDefinition.ScheduleTrigger(name, expr, rate(expr),
                input instanceof String s ? Optional.of(s) : Optional.empty(), !Boolean.FALSE.equals(enabled));
    }

    /** The period of an EventBridge {@code rate(...)} expression; empty for {@code cron(...)}. */
    static Optional<Duration> rate(String expression) {
        Matcher m = RATE.matcher(expression.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        return Optional.of(switch (m.group(2).charAt(0)) {
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        });
    }

    /**
     * Replaces {@code {Ref: P}} of a template parameter by the parameter's Default, as a deployment without
     * parameter overrides would; other intrinsics are left in place.
     */
    static Map<?, ?> resolveParameters(Map<?, ?> node, Map<?, ?> parameters) {
        Map<Object, Object> out = new LinkedHashMap<>();
        node.forEach((k, v) -> out.put(k, resolve(v, parameters)));
        return out;
    }

    private static Object resolve(Object value, Map<?, ?> parameters) {
        if (value instanceof Map<?, ?> m) {
            if (m.size() == 1 && m.get("Ref") instanceof String ref && map(parameters.get(ref)).containsKey("Default")) {
                Object d = map(parameters.get(ref)).get("Default");
                if (d instanceof String s && s.matches("-?\\d+")) {
                    return Long.valueOf(s);
                }
                return d;
            }
            return resolveParameters(m, parameters);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> resolve(v, parameters)).toList();
        }
        return value;
    }

    private static void literalVariables(Map<?, ?> props, Map<String, String> into) {
        map(map(props.get("Environment")).get("Variables")).forEach((k, v) -> {
            if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                into.put(String.valueOf(k), String.valueOf(v));
            }
        });
    }

    private static String string(Map<?, ?> props, Map<?, ?> globals, String key) {
        Object v = props.containsKey(key) ? props.get(key) : globals.get(key);
        return v instanceof String s ? s : null;
    }

    private static int integer(Map<?, ?> props, Map<?, ?> globals, String key, int fallback) {
        Object v = props.containsKey(key) ? props.get(key) : globals.get(key);
        return v instanceof Number n ? n.intValue() : fallback;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }
}
