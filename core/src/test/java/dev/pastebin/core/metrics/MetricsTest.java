package dev.pastebin.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private final CapturedMetrics captured = new CapturedMetrics();
    private final Metrics metrics = captured.metrics("upload");
    private final EmfSpec spec = new EmfSpec(Set.of("success", "transient"));

    @Test
    void oneLinePerDimensionCombinationWithEachMetricsValuesInOneArray() {
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "transient", "THROTTLING");
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "transient", "THROTTLING");
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "success", "none");
        metrics.put(Metric.BACKOFF_DELAY, 4);
        metrics.put(Metric.BACKOFF_DELAY, 8);
        metrics.put(Metric.RETRIES_PER_SUCCESS, 0);
        metrics.flush();

        List<Map<String, Object>> lines = spec.validate(captured.lines(), Set.of());

        assertEquals(3, lines.size(), captured.lines().toString());
        Map<String, Object> throttled = lines.getFirst();
        assertEquals(List.of(1.0, 1.0), throttled.get("UploadDeliveries"));
        assertEquals("upload", throttled.get("Service"));
        assertEquals("THROTTLING", throttled.get("ErrorClass"));
        // every prefix, so the total and the per-outcome series exist without metric math over a search
        assertEquals(
                List.of(List.of("Service"), List.of("Service", "Outcome"), List.of("Service", "Outcome", "ErrorClass")),
                directive(throttled).get("Dimensions"));
        Map<String, Object> serviceOnly = lines.get(2);
        assertEquals(List.of(4.0, 8.0), serviceOnly.get("BackoffDelay"));
        assertEquals(0.0, serviceOnly.get("RetriesPerSuccess"));
        assertEquals(List.of(List.of("Service")), directive(serviceOnly).get("Dimensions"));
    }

    @Test
    void flushWritesEachValueOnce() {
        metrics.put(Metric.LATENCY, 12);
        metrics.flush();
        metrics.flush();

        assertEquals(1, captured.lines().size());
    }

    @Test
    void aCallWithTheWrongDimensionsIsDroppedRatherThanThrown() {
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "transient");
        metrics.flush();

        assertEquals(List.of(), captured.lines());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> directive(Map<String, Object> line) {
        Map<String, Object> aws = (Map<String, Object>) line.get("_aws");
        return ((List<Map<String, Object>>) aws.get("CloudWatchMetrics")).getFirst();
    }
}
