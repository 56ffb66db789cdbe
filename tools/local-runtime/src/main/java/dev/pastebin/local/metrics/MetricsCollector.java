package dev.pastebin.local.metrics;

import dev.pastebin.local.lambda.FunctionOutput;
import dev.pastebin.local.lambda.InvocationResult;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the metrics out of the functions' output, as CloudWatch Logs does with a Lambda function's log: every
 * line in Embedded Metric Format is recorded in the time series; every other line is left alone. It knows no
 * metric names: whatever a function emits is kept. Besides, as Lambda does, it counts each function's
 * invocations and errors in namespace {@value #LAMBDA_NAMESPACE}, by {@code FunctionName} (the logical id
 * here): a function that fails at Init writes no metric of its own, and alarms watch these.
 */
public final class MetricsCollector implements FunctionOutput {

    static final String LAMBDA_NAMESPACE = "AWS/Lambda";

    private final Clock clock = Clock.systemUTC();
    private final MetricTimeSeries series =
            new MetricTimeSeries(clock, MetricTimeSeries.DEFAULT_BUCKET, MetricTimeSeries.DEFAULT_WINDOW);

    public MetricTimeSeries series() {
        return series;
    }

    @Override
    public void line(String function, String line) {
        EmbeddedMetrics.parse(line, clock.millis()).forEach(series::record);
    }

    @Override
    public void invoked(String function, InvocationResult result) {
        long now = clock.millis();
        SortedMap<String, String> byFunction = new TreeMap<>(Map.of("FunctionName", function));
        series.record(
                new EmbeddedMetrics.Datapoint(LAMBDA_NAMESPACE, "Invocations", "Count", byFunction, now, List.of(1.0)));
        series.record(new EmbeddedMetrics.Datapoint(
                LAMBDA_NAMESPACE, "Errors", "Count", byFunction, now, List.of(result.failed() ? 1.0 : 0.0)));
    }
}
