package dev.pastebin.local.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EmbeddedMetricsTest {

    private static final long RECEIVED = 1_800_000_000_000L;

    @Test
    void everyMetricIsRecordedOncePerDimensionSetWithItsUnitAndTimestamp() {
        var points = EmbeddedMetrics.parse("""
                {"_aws":{"Timestamp":1700000000123,"CloudWatchMetrics":[{"Namespace":"Pastebin",
                 "Dimensions":[["Service","Outcome","ErrorClass"],["Service"]],
                 "Metrics":[{"Name":"UploadDeliveries","Unit":"Count"},{"Name":"BackoffDelay","Unit":"Seconds"}]}]},
                 "Service":"upload","Outcome":"transient","ErrorClass":"SlowDown","UploadDeliveries":1,
                 "BackoffDelay":[0.2,0.4],"requestId":"r-1"}""".replace("\n", ""), RECEIVED);

        var full = new TreeMap<>(Map.of("Service", "upload", "Outcome", "transient", "ErrorClass", "SlowDown"));
        var service = new TreeMap<>(Map.of("Service", "upload"));
        assertEquals(
                List.of(
                        new EmbeddedMetrics.Datapoint(
                                "Pastebin", "UploadDeliveries", "Count", full, 1700000000123L, List.of(1.0)),
                        new EmbeddedMetrics.Datapoint(
                                "Pastebin", "BackoffDelay", "Seconds", full, 1700000000123L, List.of(0.2, 0.4)),
                        new EmbeddedMetrics.Datapoint(
                                "Pastebin", "UploadDeliveries", "Count", service, 1700000000123L, List.of(1.0)),
                        new EmbeddedMetrics.Datapoint(
                                "Pastebin", "BackoffDelay", "Seconds", service, 1700000000123L, List.of(0.2, 0.4))),
                points);
    }

    @Test
    void anEmptyDimensionSetAMissingUnitAndAMissingTimestampHaveCloudWatchsDefaults() {
        var points = EmbeddedMetrics.parse(
                "  {\"_aws\":{\"CloudWatchMetrics\":[{\"Namespace\":\"Other\","
                        + "\"Dimensions\":[[]],\"Metrics\":[{\"Name\":\"Widgets\"}]}]},\"Widgets\":7}  ",
                RECEIVED);

        assertEquals(
                List.of(new EmbeddedMetrics.Datapoint(
                        "Other", "Widgets", "None", new TreeMap<>(), RECEIVED, List.of(7.0))),
                points);
    }

    @Test
    void whatCloudWatchWouldRejectIsSkipped() {
        String line = """
                {"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"N",
                 "Dimensions":[["Missing"],["Numeric"],["Service"]],
                 "Metrics":[{"Name":"Text"},{"Name":"Absent"},{"Name":"Mixed"},{"Name":"Good"}]}]},
                 "Numeric":5,"Service":"s","Text":"1","Mixed":[1,"2"],"Good":3}""".replace("\n", "");

        var points = EmbeddedMetrics.parse(line, RECEIVED);

        assertEquals(1, points.size(), points.toString());
        assertEquals("Good", points.getFirst().name());
        assertEquals(Map.of("Service", "s"), points.getFirst().dimensions());
    }

    @Test
    void linesThatAreNotEmbeddedMetricsYieldNothing() {
        for (String line : List.of(
                "",
                "plain text",
                "{\"level\":\"INFO\",\"message\":\"no _aws\"}",
                "{\"_aws\":{\"Timestamp\":1}}",
                "{\"_aws\": broken json",
                "[\"_aws\"]",
                "2024-01-01 INFO {\"_aws\":{\"CloudWatchMetrics\":[]}}")) {
            assertEquals(List.of(), EmbeddedMetrics.parse(line, RECEIVED), line);
        }
    }
}
