package dev.pastebin.local.template;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The functions of a SAM template, read the way SAM reads them (Globals.Function merged into each function). */
public record SamTemplate(CloudFormationTemplate template, List<FunctionDefinition> functions) {

    private static final Pattern RATE = Pattern.compile("rate\\(\\s*(\\d+)\\s+(minutes?|hours?|days?)\\s*\\)");
    /** Lambda's defaults when neither the function nor Globals set them. */
    private static final int DEFAULT_MEMORY_MB = 128;

    private static final int DEFAULT_TIMEOUT_SECONDS = 3;
    private static final int DEFAULT_BATCH_SIZE = 10;
    /** Without ScalingConfig Lambda starts with five concurrent batches (and scales further). */
    private static final int DEFAULT_MAXIMUM_CONCURRENCY = 5;

    public static SamTemplate read(Path file) {
        return read(file, Map.of());
    }

    public static SamTemplate read(Path file, Map<String, String> parameterOverrides) {
        CloudFormationTemplate template = CloudFormationTemplate.load(file, parameterOverrides);
        List<FunctionDefinition> functions = new ArrayList<>();
        for (String id : template.resourcesOfType("AWS::Serverless::Function")) {
            functions.add(function(template, id));
        }
        return new SamTemplate(template, List.copyOf(functions));
    }

    public Path file() {
        return template.file();
    }

    public FunctionDefinition function(String logicalId) {
        return functions.stream()
                .filter(f -> f.logicalId().equals(logicalId))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no AWS::Serverless::Function '" + logicalId + "' in "
                        + file() + "; the template has "
                        + functions.stream().map(FunctionDefinition::logicalId).toList()));
    }

    private static FunctionDefinition function(CloudFormationTemplate template, String id) {
        Object handler = property(template, id, "Handler");
        Object codeUri = property(template, id, "CodeUri");
        if (!(handler instanceof String h) || !(codeUri instanceof String code)) {
            throw new IllegalArgumentException(
                    id + " in " + template.file() + " needs a Handler and a literal CodeUri");
        }
        Map<String, Object> metadata = CloudFormationTemplate.mapping(
                template.resource(id).getOrDefault("Metadata", Map.of()), id + ".Metadata");
        Map<String, Object> environment = CloudFormationTemplate.mapping(
                template.resolveParameters(template.environment(id)), id + " environment");

        List<FunctionDefinition.HttpRoute> routes = new ArrayList<>();
        List<FunctionDefinition.SqsTrigger> sqs = new ArrayList<>();
        List<FunctionDefinition.ScheduleTrigger> schedules = new ArrayList<>();
        CloudFormationTemplate.mapping(template.properties(id).getOrDefault("Events", Map.of()), id + ".Events")
                .forEach((eventName, event) -> {
                    Map<String, Object> e = CloudFormationTemplate.mapping(event, eventName);
                    Map<String, Object> p = CloudFormationTemplate.mapping(
                            template.resolveParameters(e.getOrDefault("Properties", Map.of())),
                            eventName + ".Properties");
                    switch (String.valueOf(e.get("Type"))) {
                        case "HttpApi" ->
                            routes.add(new FunctionDefinition.HttpRoute(
                                    eventName,
                                    String.valueOf(p.getOrDefault("Method", "ANY"))
                                            .toUpperCase(Locale.ROOT),
                                    String.valueOf(p.getOrDefault("Path", "$default")),
                                    HttpApiAuth.of(template, id + "/" + eventName, p)));
                        case "SQS" -> sqs.add(sqsTrigger(id, eventName, p));
                        case "Schedule" ->
                            schedules.add(schedule(
                                    eventName,
                                    p.get("Schedule"),
                                    p.get("Input"),
                                    "DISABLED".equals(p.get("State")) ? Boolean.FALSE : p.get("Enabled")));
                        case "ScheduleV2" ->
                            schedules.add(schedule(
                                    eventName,
                                    p.get("ScheduleExpression"),
                                    p.get("Input"),
                                    "DISABLED".equals(p.get("State")) ? Boolean.FALSE : null));
                        default -> {
                            // Other event types (S3, Api, ...) are not emulated locally; the function stays invocable.
                        }
                    }
                });
        return new FunctionDefinition(
                id,
                h,
                String.valueOf(property(template, id, "Runtime")),
                template.directory().resolve(code).normalize(),
                metadata.get("BuildMethod") instanceof String method ? method : null,
                integer(property(template, id, "MemorySize"), DEFAULT_MEMORY_MB),
                Duration.ofSeconds(integer(property(template, id, "Timeout"), DEFAULT_TIMEOUT_SECONDS)),
                environment,
                List.copyOf(routes),
                List.copyOf(sqs),
                List.copyOf(schedules));
    }

    private static FunctionDefinition.SqsTrigger sqsTrigger(String function, String eventName, Map<String, Object> p) {
        Map<String, Object> scaling =
                CloudFormationTemplate.mapping(p.getOrDefault("ScalingConfig", Map.of()), eventName + ".ScalingConfig");
        int concurrency = integer(scaling.get("MaximumConcurrency"), DEFAULT_MAXIMUM_CONCURRENCY);
        if (concurrency < 2 || concurrency > 1000) {
            throw new IllegalArgumentException(function + "/" + eventName + ": MaximumConcurrency " + concurrency
                    + " is outside 2..1000, which Lambda rejects");
        }
        return new FunctionDefinition.SqsTrigger(
                eventName,
                p.get("Queue"),
                integer(p.get("BatchSize"), DEFAULT_BATCH_SIZE),
                Duration.ofSeconds(integer(p.get("MaximumBatchingWindowInSeconds"), 0)),
                p.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures"),
                !Boolean.FALSE.equals(p.get("Enabled")),
                concurrency);
    }

    private static FunctionDefinition.ScheduleTrigger schedule(
            String name, Object expression, Object input, Object enabled) {
        if (!(expression instanceof String expr)) {
            throw new IllegalArgumentException(
                    "schedule event " + name + " needs a literal schedule expression, got " + expression);
        }
        return new FunctionDefinition.ScheduleTrigger(
                name,
                expr,
                rate(expr),
                input instanceof String s ? Optional.of(s) : Optional.empty(),
                !Boolean.FALSE.equals(enabled));
    }

    /** The period of an EventBridge {@code rate(...)} expression; empty for {@code cron(...)}. */
    public static Optional<Duration> rate(String expression) {
        Matcher m = RATE.matcher(expression.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        return Optional.of(
                switch (m.group(2).charAt(0)) {
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
    }

    private static Object property(CloudFormationTemplate template, String id, String name) {
        return template.resolveParameters(template.functionProperty(id, name));
    }

    private static int integer(Object value, int fallback) {
        return value instanceof Number n ? n.intValue() : fallback;
    }
}
