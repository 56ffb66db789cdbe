package dev.pastebin.core.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import dev.pastebin.core.support.JsonLogLines;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The line and the metrics of each transition, as operators and dashboards read them (docs/design.md, "Circuit
 * breaker" and "Metrics"): the message, the JSON fields (absent when they do not apply), the level, the metric
 * names and their {@code To} dimension.
 */
class BreakerTransitionRecorderTest {

    private static final Instant AT = Instant.parse("2026-11-23T10:00:00Z");

    private final JsonLogLines lines = JsonLogLines.of("pastebin.breaker");
    private final CapturedMetrics captured = new CapturedMetrics();
    private final Metrics metrics = captured.metrics("upload");
    private final BreakerTransitionRecorder recorder = new BreakerTransitionRecorder(metrics);

    @AfterEach
    void stopCapturing() {
        lines.close();
    }

    @Test
    void openingIsAWarningWithItsCauseCooldownAndNextProbe() {
        recorder.onApplicationEvent(new BreakerTransition(
                "s3",
                BreakerState.CLOSED,
                BreakerState.OPEN,
                "S3Exception: AccessDenied (HTTP 403): Access Denied",
                12,
                11,
                Duration.ofSeconds(10),
                AT.plusSeconds(10),
                null,
                AT));

        ObjectNode line = onlyLine();
        assertEquals("WARN", line.get("level").asText());
        assertEquals("breaker s3 CLOSED -> OPEN", line.get("message").asText());
        assertEquals("s3", line.get("breaker").asText());
        assertEquals("CLOSED", line.get("from").asText());
        assertEquals("OPEN", line.get("to").asText());
        assertEquals(
                "S3Exception: AccessDenied (HTTP 403): Access Denied",
                line.get("cause").asText());
        assertEquals(12, line.get("windowCalls").asInt());
        assertEquals(11, line.get("windowFailures").asInt());
        assertEquals(10, line.get("cooldownSeconds").asLong());
        assertEquals("2026-11-23T10:00:10Z", line.get("nextProbeAt").asText());
        assertFalse(line.has("openMinutes"), line.toString());
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, Map.of("To", "OPEN")));
        assertEquals(List.of(), metric(Metric.BREAKER_OPEN_MINUTES, Map.of()));
    }

    @Test
    void aProbeStartingIsInformationWithoutCooldown() {
        recorder.onApplicationEvent(new BreakerTransition(
                "s3", BreakerState.OPEN, BreakerState.HALF_OPEN, "down", 0, 0, null, AT.plusSeconds(30), null, AT));

        ObjectNode line = onlyLine();
        assertEquals("INFO", line.get("level").asText());
        assertEquals("breaker s3 OPEN -> HALF_OPEN", line.get("message").asText());
        assertFalse(line.has("cooldownSeconds"), line.toString());
        assertEquals("2026-11-23T10:00:30Z", line.get("nextProbeAt").asText());
        assertFalse(line.has("openMinutes"), line.toString());
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, Map.of("To", "HALF_OPEN")));
    }

    @Test
    void closingCarriesTheMinutesItWasOpenOnTheLineAndAsAMetric() {
        recorder.onApplicationEvent(new BreakerTransition(
                "s3",
                BreakerState.HALF_OPEN,
                BreakerState.CLOSED,
                "probe succeeded",
                0,
                0,
                null,
                null,
                Duration.ofSeconds(90),
                AT));

        ObjectNode line = onlyLine();
        assertEquals("INFO", line.get("level").asText());
        assertEquals("breaker s3 HALF_OPEN -> CLOSED", line.get("message").asText());
        assertEquals("probe succeeded", line.get("cause").asText());
        assertFalse(line.has("cooldownSeconds"), line.toString());
        assertFalse(line.has("nextProbeAt"), line.toString());
        assertEquals(1.5, line.get("openMinutes").asDouble());
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, Map.of("To", "CLOSED")));
        assertEquals(List.of(1.5), metric(Metric.BREAKER_OPEN_MINUTES, Map.of()));
    }

    private ObjectNode onlyLine() {
        List<ObjectNode> parsed = lines.parsed();
        assertEquals(1, parsed.size(), parsed.toString());
        return parsed.getFirst();
    }

    private List<Double> metric(Metric metric, Map<String, String> dimensions) {
        metrics.flush();
        return EmfSpec.values(new EmfSpec(Set.of()).validate(captured.lines(), Set.of()), metric, dimensions);
    }
}
