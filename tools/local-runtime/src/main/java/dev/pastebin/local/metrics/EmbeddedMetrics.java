package dev.pastebin.local.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * CloudWatch Embedded Metric Format: a log line that is a JSON object with {@code _aws.CloudWatchMetrics}
 * becomes metric data, as CloudWatch Logs extracts it from a Lambda function's output. Each directive names a
 * namespace, dimension sets and metrics; every metric is recorded once per dimension set, with the dimension
 * values and the metric's value (a number or an array of numbers) taken from the line's top-level fields.
 *
 * <p>What CloudWatch would reject is skipped rather than guessed at: a dimension set naming a field that is
 * missing or not a string, a metric whose value is missing or not numeric.
 */
public final class EmbeddedMetrics {

    /** One metric of one dimension set of a line: the values it contributes at {@code timestampMillis}. */
    public record Datapoint(
            String namespace,
            String name,
            String unit,
            SortedMap<String, String> dimensions,
            long timestampMillis,
            List<Double> values) {}

    private EmbeddedMetrics() {}

    /**
     * The datapoints of a line; empty when the line is not an EMF object (most log lines are not).
     *
     * @param receivedMillis the time used when the line has no numeric {@code _aws.Timestamp}
     */
    public static List<Datapoint> parse(String line, long receivedMillis) {
        String trimmed = line.strip();
        // Cheap test first: every line of every function passes through here.
        if (!trimmed.startsWith("{") || !trimmed.contains("\"_aws\"")) {
            return List.of();
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(trimmed);
        } catch (IOException e) {
            return List.of();
        }
        JsonNode directives = root.path("_aws").path("CloudWatchMetrics");
        if (!directives.isArray()) {
            return List.of();
        }
        JsonNode timestamp = root.path("_aws").path("Timestamp");
        long at = timestamp.canConvertToLong() ? timestamp.asLong() : receivedMillis;
        List<Datapoint> points = new ArrayList<>();
        for (JsonNode directive : directives) {
            String namespace = directive.path("Namespace").asText("");
            Map<String, String> units = new LinkedHashMap<>();
            Map<String, List<Double>> values = new LinkedHashMap<>();
            for (JsonNode metric : directive.path("Metrics")) {
                String name = metric.path("Name").asText("");
                List<Double> v = numbers(root.get(name));
                if (!name.isEmpty() && !v.isEmpty()) {
                    units.put(name, metric.path("Unit").asText("None"));
                    values.put(name, v);
                }
            }
            for (JsonNode set : directive.path("Dimensions")) {
                SortedMap<String, String> dimensions = dimensions(root, set);
                if (dimensions == null) {
                    continue;
                }
                values.forEach(
                        (name, v) -> points.add(new Datapoint(namespace, name, units.get(name), dimensions, at, v)));
            }
        }
        return points;
    }

    /** The dimension set's values from the line, or null when one of them is missing or not a string. */
    private static SortedMap<String, String> dimensions(JsonNode root, JsonNode set) {
        if (!set.isArray()) {
            return null;
        }
        SortedMap<String, String> dimensions = new TreeMap<>();
        for (JsonNode key : set) {
            JsonNode value = root.get(key.asText());
            if (value == null || !value.isTextual()) {
                return null;
            }
            dimensions.put(key.asText(), value.asText());
        }
        return dimensions;
    }

    private static List<Double> numbers(JsonNode value) {
        if (value == null) {
            return List.of();
        }
        if (value.isNumber()) {
            return List.of(value.asDouble());
        }
        List<Double> numbers = new ArrayList<>();
        if (value.isArray()) {
            for (JsonNode n : value) {
                if (!n.isNumber()) {
                    return List.of();
                }
                numbers.add(n.asDouble());
            }
        }
        return numbers;
    }
}
