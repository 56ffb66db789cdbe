package dev.pastebin.local.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.lambda.InvocationResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MetricsCollectorTest {

    @Test
    void countsEachFunctionsInvocationsAndErrorsAsLambdaDoes() {
        MetricsCollector collector = new MetricsCollector();
        byte[] initError = "{\"errorType\":\"Runtime.ExitError\"}".getBytes(StandardCharsets.UTF_8);

        collector.invoked(
                "UploadPasteFunction", new InvocationResult("1", initError, "Unhandled", Duration.ofMillis(5), true));
        collector.invoked(
                "UploadPasteFunction", new InvocationResult("2", new byte[0], null, Duration.ofMillis(5), false));
        collector.invoked(
                "ReadPasteFunction", new InvocationResult("3", new byte[0], null, Duration.ofMillis(5), false));

        assertEquals(2.0, sum(collector, "Invocations", "UploadPasteFunction"));
        assertEquals(1.0, sum(collector, "Errors", "UploadPasteFunction"));
        assertEquals(
                0.0,
                sum(collector, "Errors", "ReadPasteFunction"),
                "an invocation without error counts 0, as on Lambda");
    }

    private static double sum(MetricsCollector collector, String metric, String function) {
        double sum = 0;
        for (JsonNode series : collector.series().toJson().get("series")) {
            if (series.get("namespace").asText().equals("AWS/Lambda")
                    && series.get("name").asText().equals(metric)
                    && series.get("dimensions").get("FunctionName").asText().equals(function)) {
                for (JsonNode point : series.get("points")) {
                    sum += point.get("sum").asDouble();
                }
            }
        }
        return sum;
    }
}
