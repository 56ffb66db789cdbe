package dev.pastebin.core.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.failure.Dependency;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Checks an EMF line against the CloudWatch Embedded Metric Format specification, written from the
 * specification rather than from the library that produced the line, and against this project's contract:
 * only the metrics of {@link Metric} with their units, and dimensions that stay low-cardinality (keys from
 * {@link Metric.Dimension}, values from bounded sets; never a short code or a message id).
 */
public final class EmfSpec {

    /** The units CloudWatch accepts. */
    public static final Set<String> UNITS = Set.of(
            "Seconds",
            "Microseconds",
            "Milliseconds",
            "Bytes",
            "Kilobytes",
            "Megabytes",
            "Gigabytes",
            "Terabytes",
            "Bits",
            "Kilobits",
            "Megabits",
            "Gigabits",
            "Terabits",
            "Percent",
            "Count",
            "Bytes/Second",
            "Kilobytes/Second",
            "Megabytes/Second",
            "Gigabytes/Second",
            "Terabytes/Second",
            "Bits/Second",
            "Kilobits/Second",
            "Megabits/Second",
            "Gigabits/Second",
            "Terabits/Second",
            "Count/Second",
            "None");

    private static final int MAX_DIMENSIONS_PER_SET = 30;
    private static final int MAX_METRICS_PER_DIRECTIVE = 100;
    private static final int MAX_VALUES_PER_METRIC = 100;
    private static final Pattern STATUS_CODE = Pattern.compile("[1-5][0-9]{2}");
    private static final Pattern UUID =
            Pattern.compile("(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Map<String, Set<String>> allowedValues = new HashMap<>();

    /**
     * @param outcomes the upload outcomes (they live in the upload function); any other dimension's values
     *                 are core's enums
     */
    public EmfSpec(Set<String> outcomes) {
        allowedValues.put("Service", Set.of("create", "read", "upload", "sweeper"));
        allowedValues.put("Outcome", outcomes);
        allowedValues.put(
                "ErrorClass",
                Stream.concat(
                                Stream.of("none"),
                                Arrays.stream(ErrorClass.values()).map(Enum::name))
                        .collect(Collectors.toSet()));
        allowedValues.put(
                "To", Arrays.stream(BreakerState.values()).map(Enum::name).collect(Collectors.toSet()));
        allowedValues.put(
                "Dependency",
                Arrays.stream(Dependency.values()).map(Dependency::label).collect(Collectors.toSet()));
        assertEquals(
                Arrays.stream(Metric.Dimension.values())
                        .map(Metric.Dimension::key)
                        .collect(Collectors.toSet()),
                Stream.concat(allowedValues.keySet().stream(), Stream.of("StatusCode"))
                        .collect(Collectors.toSet()),
                "every dimension has a bounded set of values");
    }

    /**
     * Validates each line; {@code forbidden} are values that must never be a dimension (the short codes and
     * message ids the test used). Returns each line parsed, for the test's own assertions.
     */
    public List<Map<String, Object>> validate(List<String> lines, Set<String> forbidden) {
        return lines.stream().map(line -> validate(line, forbidden)).toList();
    }

    /** Every value of {@code metric} on the lines whose dimensions include {@code dimensions}. */
    @SuppressWarnings("unchecked")
    public static List<Double> values(List<Map<String, Object>> lines, Metric metric, Map<String, String> dimensions) {
        return lines.stream()
                .filter(line -> line.containsKey(metric.metricName()))
                .filter(line -> dimensions.entrySet().stream()
                        .allMatch(d -> d.getValue().equals(line.get(d.getKey()))))
                .flatMap(line -> line.get(metric.metricName()) instanceof List<?> list
                        ? (Stream<Object>) list.stream()
                        : Stream.of(line.get(metric.metricName())))
                .map(v -> ((Number) v).doubleValue())
                .toList();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> validate(String line, Set<String> forbidden) {
        Map<String, Object> root = parse(line);
        Map<String, Object> aws = assertInstanceOf(Map.class, root.get("_aws"), "_aws object: " + line);
        Number timestamp = assertInstanceOf(Number.class, aws.get("Timestamp"), "_aws.Timestamp: " + line);
        long millis = timestamp.longValue();
        assertEquals((double) millis, timestamp.doubleValue(), "Timestamp is whole epoch milliseconds: " + line);
        Instant at = Instant.ofEpochMilli(millis);
        assertTrue(
                at.isAfter(Instant.now().minus(Duration.ofDays(1)))
                        && at.isBefore(Instant.now().plus(Duration.ofMinutes(5))),
                "Timestamp in epoch milliseconds, now: " + line);
        List<Object> directives =
                assertInstanceOf(List.class, aws.get("CloudWatchMetrics"), "_aws.CloudWatchMetrics: " + line);
        assertFalse(directives.isEmpty(), line);
        for (Object d : directives) {
            Map<String, Object> directive = assertInstanceOf(Map.class, d, line);
            String namespace = assertInstanceOf(String.class, directive.get("Namespace"), "Namespace: " + line);
            assertEquals(Metrics.NAMESPACE, namespace, line);
            List<Object> metrics = assertInstanceOf(List.class, directive.get("Metrics"), "Metrics: " + line);
            assertFalse(metrics.isEmpty(), line);
            assertTrue(metrics.size() <= MAX_METRICS_PER_DIRECTIVE, line);
            Set<Metric> defined =
                    metrics.stream().map(m -> metricDefinition(root, m, line)).collect(Collectors.toSet());
            List<Object> dimensionSets =
                    assertInstanceOf(List.class, directive.get("Dimensions"), "Dimensions: " + line);
            for (Object s : dimensionSets) {
                List<Object> set = assertInstanceOf(List.class, s, "a dimension set is an array: " + line);
                assertTrue(set.size() <= MAX_DIMENSIONS_PER_SET, line);
                List<String> keys = set.stream()
                        .map(k -> dimension(root, k, forbidden, line))
                        .toList();
                for (Metric metric : defined) {
                    List<String> declared = metric.dimensions().stream()
                            .map(Metric.Dimension::key)
                            .toList();
                    assertEquals(
                            declared.subList(0, Math.min(keys.size(), declared.size())),
                            keys,
                            metric + " is only emitted under prefixes of its dimensions: " + line);
                }
            }
        }
        return root;
    }

    @SuppressWarnings("unchecked")
    private static Metric metricDefinition(Map<String, Object> root, Object m, String line) {
        Map<String, Object> definition = assertInstanceOf(Map.class, m, "metric definition: " + line);
        String name = assertInstanceOf(String.class, definition.get("Name"), "Name: " + line);
        Metric metric = Arrays.stream(Metric.values())
                .filter(x -> x.metricName().equals(name))
                .findFirst()
                .orElseGet(() -> fail("not a metric of dev.pastebin.core.metrics.Metric: " + name));
        Object unit = definition.get("Unit");
        assertNotNull(unit, "every metric names its unit: " + line);
        assertTrue(UNITS.contains(unit), "unit " + unit + " is not a CloudWatch unit: " + line);
        assertEquals(metric.unit().toString(), unit, name + "'s unit: " + line);
        Object value = root.get(name);
        if (value instanceof List<?> values) {
            assertFalse(values.isEmpty(), line);
            assertTrue(values.size() <= MAX_VALUES_PER_METRIC, "at most 100 values per metric: " + line);
            values.forEach(v -> assertInstanceOf(Number.class, v, name + " values are numbers: " + line));
        } else {
            assertInstanceOf(Number.class, value, name + " is a top-level number or array of numbers: " + line);
        }
        return metric;
    }

    private String dimension(Map<String, Object> root, Object k, Set<String> forbidden, String line) {
        String key = assertInstanceOf(String.class, k, "a dimension name is a string: " + line);
        String value =
                assertInstanceOf(String.class, root.get(key), "dimension " + key + " is a top-level string: " + line);
        assertFalse(
                forbidden.contains(value) || UUID.matcher(value).matches(),
                "dimension " + key + "=" + value + " is a per-request value: " + line);
        if (key.equals("StatusCode")) {
            assertTrue(STATUS_CODE.matcher(value).matches(), "StatusCode " + value + ": " + line);
        } else {
            Set<String> allowed = allowedValues.get(key);
            assertNotNull(allowed, "dimension " + key + " is not in the allow-list: " + line);
            assertTrue(
                    allowed.contains(value), "dimension " + key + "=" + value + " is outside " + allowed + ": " + line);
        }
        return key;
    }

    private static Map<String, Object> parse(String line) {
        try {
            return ObjectMapper.getDefault().readValue(line, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + line, e);
        }
    }
}
