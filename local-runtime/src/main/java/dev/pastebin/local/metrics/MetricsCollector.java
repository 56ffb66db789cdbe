package dev.pastebin.local.metrics;

import dev.pastebin.local.lambda.FunctionOutput;

import java.time.Clock;

/**
 * Reads the metrics out of the functions' output, as CloudWatch Logs does with a Lambda function's log: every
 * line in Embedded Metric Format is recorded in the time series; every other line is left alone. It knows no
 * metric names: whatever a function emits is kept.
 */
public final class MetricsCollector implements FunctionOutput {

    private final Clock clock = Clock.systemUTC();
    private final MetricTimeSeries series = new MetricTimeSeries(clock, MetricTimeSeries.DEFAULT_BUCKET,
            MetricTimeSeries.DEFAULT_WINDOW);

    public MetricTimeSeries series() {
        return series;
    }

    @Override
    public void line(String function, String line) {
        EmbeddedMetrics.parse(line, clock.millis()).forEach(series::record);
    }
}
