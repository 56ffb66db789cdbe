package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The HTTP functions' metrics (core's ApiMetricsFilter) as the read function's real handler writes them: one
 * flush per request, status codes of errors included, 503s by dependency, all valid EMF. No real service: the
 * database is a closed port.
 */
class ApiMetricsTest {

    private static final String SHORT_CODE = "aB3xYz9Q";

    @Test
    void everyAnswerIsCountedByStatusAnd503sByTheDependencyThatWasDown() {
        try (HttpApi api = HttpApi.start(Map.of(
                "pastebin.metrics.capture",
                true,
                "datasources.default.url",
                "jdbc:postgresql://127.0.0.1:1/pastebin",
                "datasources.default.connection-timeout",
                250,
                "flyway.datasources.default.enabled",
                false))) {
            CapturedMetrics emitted = api.context().getBean(CapturedReadMetrics.class);

            assertEquals(
                    503,
                    api.send(api.fixture("read-paste").path("/pastes/" + SHORT_CODE))
                            .status());
            assertEquals(
                    3,
                    emitted.lines().size(),
                    "written before the answer, one line per dimension combination: " + emitted.lines());
            assertEquals(
                    405, api.send(api.fixture("read-paste").method("DELETE")).status());

            List<Map<String, Object>> lines =
                    new EmfSpec(Set.of()).validate(emitted.lines(), Set.of(SHORT_CODE, "KXb3kgF0IAMEVxy="));
            assertEquals(
                    List.of(1.0),
                    EmfSpec.values(lines, Metric.REQUESTS, Map.of("Service", "read", "StatusCode", "503")));
            assertEquals(
                    List.of(1.0),
                    EmfSpec.values(lines, Metric.REQUESTS, Map.of("Service", "read", "StatusCode", "405")));
            assertEquals(
                    List.of(1.0),
                    EmfSpec.values(
                            lines, Metric.DEPENDENCY_UNAVAILABLE, Map.of("Service", "read", "Dependency", "database")));
            List<Double> latencies = EmfSpec.values(lines, Metric.LATENCY, Map.of("Service", "read"));
            assertEquals(2, latencies.size());
            assertTrue(latencies.getFirst() >= 250, "the 503 waited out the connection timeout: " + latencies);
        }
    }
}
