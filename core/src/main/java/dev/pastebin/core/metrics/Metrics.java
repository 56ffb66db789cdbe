package dev.pastebin.core.metrics;

import io.micronaut.context.annotation.Property;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The one way the functions record metrics: CloudWatch Embedded Metric Format lines, which Lambda ships
 * from stdout to CloudWatch Logs and CloudWatch turns into metrics (no agent, no API call on the request
 * path). Values are buffered per dimension combination and written by {@link #flush()} at the end of each
 * invocation, one line per combination (a metric's values in one array), so a batch of ten uploads costs a
 * handful of lines, not dozens. Recording never throws: a metric is not worth failing a paste for.
 */
@Singleton
public class Metrics {

    public static final String NAMESPACE = "Pastebin";

    private static final Logger LOG = LoggerFactory.getLogger(Metrics.class);

    private final String service;
    private final Environment environment;
    /** Keyed by the metric's dimension names and values: each combination is one EMF line. */
    private final Map<List<String>, MetricsLogger> pending = new LinkedHashMap<>();

    /**
     * @param service     the {@code Service} dimension: create, read, remove, upload or sweeper
     * @param environment where lines go: stdout on Lambda and locally ({@link MetricsEnvironment}), a capture in tests
     */
    @Inject
    public Metrics(@Property(name = "pastebin.metrics.service") String service, Environment environment) {
        this.service = service;
        this.environment = environment;
        warmUp();
    }

    /**
     * Loads and initialises the library's serialisation (its Jackson mapper: a few hundred milliseconds on
     * first use) at init, where SnapStart captures it in the snapshot and a cold start pays it with the
     * init phase's CPU, instead of the first request after a restore. Nothing is written.
     */
    private void warmUp() {
        try {
            var context = new MetricsContext();
            context.setNamespace(NAMESPACE);
            context.setDimensions(DimensionSet.of(Metric.Dimension.SERVICE.key(), service));
            context.putMetric(Metric.LATENCY.metricName(), 0, Unit.MILLISECONDS);
            context.serialize();
        } catch (Exception e) {
            LOG.debug("metrics warm-up failed; the first flush pays it: {}", e.toString());
        }
    }

    /** Adds one value; {@code dimensionValues} are the metric's own dimensions, in {@link Metric#dimensions()} order after Service. */
    public synchronized void put(Metric metric, double value, String... dimensionValues) {
        List<String> names =
                metric.dimensions().stream().map(Metric.Dimension::key).toList();
        if (dimensionValues.length != names.size() - 1) {
            LOG.warn(
                    "metric {} needs dimensions {}, got {} values; not recorded",
                    metric.metricName(),
                    names,
                    dimensionValues.length);
            return;
        }
        List<String> values = new ArrayList<>(names.size());
        values.add(service);
        values.addAll(List.of(dimensionValues));
        List<String> key = new ArrayList<>(names);
        key.addAll(values);
        try {
            MetricsLogger logger = pending.get(key);
            if (logger == null) {
                logger = newLogger(names, values);
                pending.put(key, logger);
            }
            logger.putMetric(metric.metricName(), value, metric.unit());
        } catch (Exception e) {
            // InvalidMetricException and friends: a programming error, logged rather than failing the work.
            LOG.warn("metric {} not recorded: {}", metric.metricName(), e.toString());
        }
    }

    /** Writes what was recorded since the last flush; called once at the end of each invocation. */
    public synchronized void flush() {
        try {
            pending.values().forEach(MetricsLogger::flush);
        } catch (RuntimeException e) {
            LOG.warn("metrics not written: {}", e.toString());
        } finally {
            pending.clear();
        }
    }

    /** Dimension sets: every prefix of the metric's dimensions, so totals and breakdowns are all plain metrics. */
    private MetricsLogger newLogger(List<String> names, List<String> values) throws Exception {
        var logger = new MetricsLogger(environment);
        logger.setNamespace(NAMESPACE);
        var sets = new DimensionSet[names.size()];
        for (int i = 0; i < names.size(); i++) {
            var set = new DimensionSet();
            for (int j = 0; j <= i; j++) {
                set.addDimension(names.get(j), values.get(j));
            }
            sets[i] = set;
        }
        // Replaces the library's defaults (LogGroup, ServiceName, ServiceType): the function name is in Service.
        logger.setDimensions(sets);
        return logger;
    }
}
