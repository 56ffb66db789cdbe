package dev.pastebin.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The validator the metric tests rely on refuses what the EMF specification or the contract forbids. */
class EmfSpecTest {

    private final EmfSpec spec = new EmfSpec(Set.of("success", "transient"));
    private final long now = System.currentTimeMillis();

    private void refused(String line) {
        assertThrows(AssertionFailedError.class, () -> spec.validate(List.of(line), Set.of()), line);
    }

    private String line(String timestamp, String unit, String value, String service) {
        return "{\"_aws\":{\"Timestamp\":" + timestamp + ",\"CloudWatchMetrics\":[{\"Namespace\":\"Pastebin\","
                + "\"Metrics\":[{\"Name\":\"Latency\",\"Unit\":\"" + unit + "\"}],\"Dimensions\":[[\"Service\"]]}]},"
                + "\"Service\":\"" + service + "\",\"Latency\":" + value + "}";
    }

    @Test
    void aWellFormedLinePasses() {
        spec.validate(List.of(line(Long.toString(now), "Milliseconds", "[12.5, 3]", "read")), Set.of());
    }

    @Test
    void whatTheSpecificationForbidsIsRefused() {
        refused(line(Long.toString(now / 1000), "Milliseconds", "12", "read")); // seconds, not milliseconds
        refused(line("\"" + now + "\"", "Milliseconds", "12", "read")); // not a number
        refused(line(Long.toString(now), "Millis", "12", "read")); // not a CloudWatch unit
        refused(line(Long.toString(now), "Count", "12", "read")); // not Latency's unit
        refused(line(Long.toString(now), "Milliseconds", "\"12\"", "read")); // value not a number
        refused(line(Long.toString(now), "Milliseconds", "[" + "1,".repeat(100) + "1]", "read")); // 101 values
        refused(line(Long.toString(now), "Milliseconds", "12", "read")
                .replace(",\"Service\":\"read\"", "")); // dimension missing
        refused("{\"Latency\":12,\"Service\":\"read\"}"); // no _aws
    }

    @Test
    void aPerPasteOrPerMessageDimensionIsRefused() {
        CapturedMetrics captured = new CapturedMetrics();
        Metrics metrics = captured.metrics("upload");
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "aB3xYz9Q", "none");
        metrics.put(Metric.UPLOAD_DELIVERIES, 1, "success", "4d5c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a");
        metrics.flush();

        assertEquals(2, captured.lines().size());
        for (String line : captured.lines()) {
            assertThrows(AssertionFailedError.class, () -> spec.validate(List.of(line), Set.of("aB3xYz9Q")), line);
        }
        refused(line(Long.toString(now), "Milliseconds", "12", "read-aB3xYz9Q"));
    }
}
