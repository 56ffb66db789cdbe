package dev.pastebin.local.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The metrics of the last minutes, in memory and bounded: per metric (namespace, name, dimension values) one
 * bucket per {@code bucket} of time holding the sum, count, min and max of its values and a sample of the
 * values themselves (all of them up to {@value #MAX_VALUES_PER_BUCKET}, then a uniform random sample), from
 * which a reader computes percentiles over any span. Buckets older than {@code window} are dropped, and at
 * most {@value #MAX_SERIES} metrics are kept, so a function that emits without bound cannot exhaust memory.
 */
public final class MetricTimeSeries {

    public static final Duration DEFAULT_BUCKET = Duration.ofSeconds(10);
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(30);
    // At most 500 x 180 buckets x 256 values of 8 bytes, some 180 MB, when a function floods the runtime;
    // an application's own dashboard needs a few dozen series and far fewer values.
    static final int MAX_SERIES = 500;
    static final int MAX_VALUES_PER_BUCKET = 256;

    private record Key(String namespace, String name, SortedMap<String, String> dimensions) {}

    private static final class Series {
        String unit;
        final TreeMap<Long, Bucket> buckets = new TreeMap<>();
    }

    private static final class Bucket {
        long count;
        double sum;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double[] sample = new double[4];
        int sampled;

        void add(double value) {
            count++;
            sum += value;
            min = Math.min(min, value);
            max = Math.max(max, value);
            if (sampled < MAX_VALUES_PER_BUCKET) {
                if (sampled == sample.length) {
                    sample = Arrays.copyOf(sample, Math.min(2 * sampled, MAX_VALUES_PER_BUCKET));
                }
                sample[sampled++] = value;
            } else {
                // Reservoir sampling: every value so far stays in the sample with the same probability.
                long slot = ThreadLocalRandom.current().nextLong(count);
                if (slot < MAX_VALUES_PER_BUCKET) {
                    sample[(int) slot] = value;
                }
            }
        }
    }

    private final Clock clock;
    private final long bucketMillis;
    private final long windowMillis;
    private final Map<Key, Series> series = new HashMap<>();
    private long droppedDatapoints;

    public MetricTimeSeries(Clock clock, Duration bucket, Duration window) {
        if (bucket.isNegative() || bucket.isZero() || window.compareTo(bucket) < 0) {
            throw new IllegalArgumentException("need 0 < bucket <= window, got " + bucket + " and " + window);
        }
        this.clock = clock;
        this.bucketMillis = bucket.toMillis();
        this.windowMillis = window.toMillis();
    }

    /** Adds the datapoint's values to its bucket; a datapoint outside the window is ignored. */
    public synchronized void record(EmbeddedMetrics.Datapoint point) {
        long now = clock.millis();
        evict(now);
        long t = point.timestampMillis();
        if (t < oldestKept(now) || t > now + windowMillis) {
            return;
        }
        Key key = new Key(point.namespace(), point.name(), point.dimensions());
        Series s = series.get(key);
        if (s == null) {
            if (series.size() >= MAX_SERIES) {
                droppedDatapoints++;
                return;
            }
            s = new Series();
            series.put(key, s);
        }
        s.unit = point.unit();
        Bucket bucket = s.buckets.computeIfAbsent(Math.floorDiv(t, bucketMillis) * bucketMillis, b -> new Bucket());
        point.values().forEach(bucket::add);
    }

    /**
     * The series as JSON: {@code {bucketSeconds, windowSeconds, now, droppedDatapoints, series: [{namespace,
     * name, unit, dimensions: {...}, points: [{t, count, sum, min, max, values: [...]}]}]}}, points oldest
     * first, {@code t} the bucket's start in epoch milliseconds; {@code droppedDatapoints} counts the
     * datapoints of metrics beyond the limit.
     */
    public synchronized ObjectNode toJson() {
        long now = clock.millis();
        evict(now);
        ObjectNode root = Json.object()
                .put("bucketSeconds", bucketMillis / 1000.0)
                .put("windowSeconds", windowMillis / 1000.0)
                .put("now", now)
                .put("droppedDatapoints", droppedDatapoints);
        ArrayNode all = root.putArray("series");
        series.entrySet().stream()
                .sorted(Comparator.comparing(
                                (Map.Entry<Key, Series> e) -> e.getKey().namespace())
                        .thenComparing(e -> e.getKey().name())
                        .thenComparing(e -> e.getKey().dimensions().toString()))
                .forEach(e -> {
                    ObjectNode s = all.addObject()
                            .put("namespace", e.getKey().namespace())
                            .put("name", e.getKey().name())
                            .put("unit", e.getValue().unit);
                    ObjectNode dimensions = s.putObject("dimensions");
                    e.getKey().dimensions().forEach(dimensions::put);
                    ArrayNode points = s.putArray("points");
                    e.getValue().buckets.forEach((t, b) -> {
                        ObjectNode p = points.addObject()
                                .put("t", t)
                                .put("count", b.count)
                                .put("sum", b.sum)
                                .put("min", b.min)
                                .put("max", b.max);
                        ArrayNode values = p.putArray("values");
                        for (int i = 0; i < b.sampled; i++) {
                            values.add(b.sample[i]);
                        }
                    });
                });
        return root;
    }

    /** The start of the oldest bucket still inside the window. */
    private long oldestKept(long now) {
        return Math.floorDiv(now - windowMillis, bucketMillis) * bucketMillis + bucketMillis;
    }

    private void evict(long now) {
        long oldest = oldestKept(now);
        series.values().removeIf(s -> {
            s.buckets.headMap(oldest).clear();
            return s.buckets.isEmpty();
        });
    }
}
