package dev.pastebin.local.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MetricTimeSeriesTest {

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        long millis;

        TestClock(long millis) {
            this.millis = millis;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    private static final long T0 = 1_700_000_000_000L; // a multiple of 10 s

    private final TestClock clock = new TestClock(T0 + 5_000);
    private final MetricTimeSeries series = new MetricTimeSeries(clock, Duration.ofSeconds(10), Duration.ofMinutes(1));

    private static EmbeddedMetrics.Datapoint point(
            String name, Map<String, String> dimensions, long t, Double... values) {
        return new EmbeddedMetrics.Datapoint("N", name, "Count", new TreeMap<>(dimensions), t, List.of(values));
    }

    @Test
    void valuesAreAggregatedPerMetricDimensionValuesAndBucket() {
        series.record(point("Attempts", Map.of("Outcome", "transient"), T0 + 1_000, 1.0));
        series.record(point("Attempts", Map.of("Outcome", "transient"), T0 + 9_999, 2.0, 4.0));
        series.record(point("Attempts", Map.of("Outcome", "transient"), T0 - 1, 8.0));
        series.record(point("Attempts", Map.of("Outcome", "success"), T0 + 2_000, 16.0));

        JsonNode json = series.toJson();

        assertEquals(10.0, json.get("bucketSeconds").asDouble());
        assertEquals(60.0, json.get("windowSeconds").asDouble());
        assertEquals(T0 + 5_000, json.get("now").asLong());
        assertEquals(2, json.get("series").size());
        JsonNode success = json.get("series").get(0);
        assertEquals("{\"Outcome\":\"success\"}", success.get("dimensions").toString());
        JsonNode transientAttempts = json.get("series").get(1);
        assertEquals("Attempts", transientAttempts.get("name").asText());
        assertEquals("Count", transientAttempts.get("unit").asText());
        JsonNode points = transientAttempts.get("points");
        assertEquals(2, points.size());
        assertEquals(
                "{\"t\":1699999990000,\"count\":1,\"sum\":8.0,\"min\":8.0,\"max\":8.0,\"values\":[8.0]}",
                points.get(0).toString());
        assertEquals(
                "{\"t\":1700000000000,\"count\":3,\"sum\":7.0,\"min\":1.0,\"max\":4.0,\"values\":[1.0,2.0,4.0]}",
                points.get(1).toString());
    }

    @Test
    void bucketsLeaveWithTheWindowAndSeriesWithTheirLastBucket() {
        series.record(point("Old", Map.of(), T0, 1.0));
        series.record(point("New", Map.of(), T0 + 30_000, 1.0));
        assertEquals(2, series.toJson().get("series").size());

        clock.millis = T0 + 65_000; // the window is (T0+5 s, T0+65 s]: buckets T0+10 s .. T0+60 s
        JsonNode json = series.toJson();

        assertEquals(1, json.get("series").size());
        assertEquals("New", json.get("series").get(0).get("name").asText());
        series.record(point("TooOld", Map.of(), T0 + 9_999, 1.0));
        series.record(point("OldestKept", Map.of(), T0 + 10_000, 1.0));
        List<String> names = new ArrayList<>();
        series.toJson().get("series").forEach(s -> names.add(s.get("name").asText()));
        assertEquals(List.of("New", "OldestKept"), names);
    }

    @Test
    void theNumberOfMetricsAndOfSampledValuesIsBounded() {
        for (int i = 0; i < MetricTimeSeries.MAX_SERIES + 5; i++) {
            series.record(point("M" + i, Map.of(), T0, 1.0));
        }
        Double[] many = new Double[MetricTimeSeries.MAX_VALUES_PER_BUCKET * 2];
        Arrays.fill(many, 3.0);
        series.record(point("M0", Map.of(), T0, many));

        JsonNode json = series.toJson();

        assertEquals(MetricTimeSeries.MAX_SERIES, json.get("series").size());
        assertEquals(5, json.get("droppedDatapoints").asLong());
        JsonNode m0 = json.get("series").get(0).get("points").get(0);
        assertEquals(1 + many.length, m0.get("count").asLong());
        assertEquals(1 + 3.0 * many.length, m0.get("sum").asDouble());
        assertEquals(MetricTimeSeries.MAX_VALUES_PER_BUCKET, m0.get("values").size());
    }
}
