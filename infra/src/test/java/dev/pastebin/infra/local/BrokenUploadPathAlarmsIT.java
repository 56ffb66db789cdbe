package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The alarms on a broken upload path (docs/design.md, "Observability") against the local system: the real
 * function artifacts on the local runtime, with faults injected through per-function environment overrides.
 * For each alarm, the metric it watches, read from the local metrics endpoint (the dashboard's data), crosses
 * the alarm's threshold, both taken from infra/template.yaml. The runtime gets a database of its own: the
 * stuck-paste gauge reads the whole table, and the test ages its paste by SQL rather than by waiting.
 */
@RealServices
class BrokenUploadPathAlarmsIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final CloudFormationTemplate TEMPLATE =
            CloudFormationTemplate.load(TestSupport.repositoryRoot().resolve("infra/template.yaml"));

    private static String databaseUrl;

    @BeforeAll
    static void ownDatabase() throws SQLException {
        databaseUrl = OwnDatabase.Create.migrated("alarms");
    }

    /** The gauge reads the oldest pending paste: the other test's must not count here. */
    @BeforeEach
    void noPastes() throws SQLException {
        try (Connection c = connection();
                var s = c.createStatement()) {
            s.execute("DELETE FROM pastes");
        }
    }

    private static Connection connection() throws SQLException {
        return DriverManager.getConnection(
                databaseUrl,
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
    }

    /**
     * The upload, read and remove functions log in with a wrong database password (a rotation gone wrong; a
     * security-group change looks the same to them): create and the sweeper keep the right one, so a paste is
     * accepted (201) and never stored.
     */
    @Test
    void aWrongDatabasePasswordTripsTheStuckPasteAndDatabaseFailureAlarms() throws Exception {
        Map<String, String> wrongPassword = Map.of("DATASOURCES_DEFAULT_PASSWORD", "not-the-password");
        try (var runtime = start(
                "local-alarms-db",
                Map.of(
                        "ReadPasteFunction",
                        wrongPassword,
                        "RemovePasteFunction",
                        wrongPassword,
                        "UploadPasteFunction",
                        uploadDatabase(wrongPassword)))) {
            String location = createPasteNeverStored(runtime);
            for (int i = 0; i < 2; i++) {
                var read = HTTP.send(
                        HttpRequest.newBuilder(runtime.uri(location)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, read.statusCode(), read.body());
                var delete = HTTP.send(
                        HttpRequest.newBuilder(runtime.uri(location))
                                .header("Paste-Delete-Token", "any")
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, delete.statusCode(), delete.body());
            }
            awaitBreached(
                    runtime,
                    "UploadStuckPasteAlarm",
                    "UploadDatabaseFailuresAlarm",
                    "ReadPasteDatabaseFailuresAlarm",
                    "RemovePasteDatabaseFailuresAlarm");
        }
    }

    /**
     * The upload function cannot start (its JVM refuses an option: an Init failure, as a bad deployment or
     * configuration causes): it writes no metric at all, so the alarms watch Lambda's count and the sweeper's.
     */
    @Test
    void anUploadInitFailureTripsTheErrorsAndStuckPasteAlarms() throws Exception {
        try (var runtime = start(
                "local-alarms-init",
                Map.of(
                        "UploadPasteFunction",
                        uploadDatabase(Map.of("JAVA_TOOL_OPTIONS", "-XX:+NoSuchOptionAnInitFailure"))))) {
            createPasteNeverStored(runtime);
            awaitBreached(runtime, "UploadStuckPasteAlarm", "UploadPasteErrorsAlarm");
        }
    }

    /** The runtime on this class's database; the sweeper reports its gauge seconds apart instead of 5 minutes. */
    private static LocalRuntimeProcess start(String name, Map<String, Map<String, String>> faults) throws Exception {
        Map<String, Map<String, String>> environment = new HashMap<>(faults);
        environment.put("Parameters", Map.of("DATASOURCES_DEFAULT_URL", databaseUrl));
        return LocalRuntimeProcess.start(name, environment, List.of("--schedule-interval", "3s"));
    }

    /** The template gives the upload function its own URL (with its timeouts), which would win over the shared one. */
    private static Map<String, String> uploadDatabase(Map<String, String> more) {
        Map<String, String> variables = new HashMap<>(more);
        variables.put("DATASOURCES_DEFAULT_URL", databaseUrl + "?connectTimeout=2&socketTimeout=3");
        return variables;
    }

    /**
     * Creates a paste (201) and ages it past the stuck-paste alarm's threshold by SQL, as if that long had
     * passed; returns its location.
     */
    private static String createPasteNeverStored(LocalRuntimeProcess runtime) throws Exception {
        var created = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/pastes"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("never stored"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        double stuckAfter = alarm("UploadStuckPasteAlarm").threshold();
        ageInProgressPaste(
                location.substring(location.lastIndexOf('/') + 1), Duration.ofSeconds((long) stuckAfter + 60));
        return location;
    }

    /** Polls the local metrics (the dashboard's data) until each alarm's metric is past its threshold. */
    private static void awaitBreached(LocalRuntimeProcess runtime, String... alarms) throws Exception {
        Map<String, String> notYet = Map.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode metrics = Json.MAPPER.readTree(HTTP.send(
                            HttpRequest.newBuilder(runtime.uri("/_local/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray())
                    .body());
            notYet = Arrays.stream(alarms)
                    .map(BrokenUploadPathAlarmsIT::alarm)
                    .filter(a -> !a.breachedBy(metrics))
                    .collect(Collectors.toMap(Alarm::id, a -> a.metric() + a.dimensions() + " = " + a.value(metrics)));
            if (notYet.isEmpty()) {
                return;
            }
            Thread.sleep(1_000);
        }
        String output = runtime.output();
        fail("not breached: " + notYet + "\n" + output.substring(Math.max(0, output.length() - 6_000)));
    }

    /**
     * An alarm as the template declares it. The local metrics hold a few minutes, one or two of its periods:
     * its statistic over all of them is compared with its threshold.
     */
    record Alarm(
            String id,
            String namespace,
            String metric,
            Map<String, String> dimensions,
            String statistic,
            double threshold,
            String comparison) {

        Double value(JsonNode metrics) {
            Double value = null;
            for (JsonNode series : metrics.get("series")) {
                if (!series.get("namespace").asText().equals(namespace)
                        || !series.get("name").asText().equals(metric)
                        || !Json.MAPPER
                                .convertValue(series.get("dimensions"), Map.class)
                                .equals(dimensions)) {
                    continue;
                }
                for (JsonNode point : series.get("points")) {
                    double v = switch (statistic) {
                        case "Sum" -> point.get("sum").asDouble();
                        case "Maximum" -> point.get("max").asDouble();
                        default -> throw new IllegalArgumentException(id + ": statistic " + statistic);
                    };
                    value = value == null ? v : statistic.equals("Sum") ? value + v : Math.max(value, v);
                }
            }
            return value;
        }

        boolean breachedBy(JsonNode metrics) {
            Double value = value(metrics);
            return value != null
                    && switch (comparison) {
                        case "GreaterThanThreshold" -> value > threshold;
                        case "GreaterThanOrEqualToThreshold" -> value >= threshold;
                        default -> throw new IllegalArgumentException(id + ": comparison " + comparison);
                    };
        }
    }

    /** The alarm's metric, with a {@code Ref} to a function resolved to its logical id (the local FunctionName). */
    @SuppressWarnings("unchecked")
    static Alarm alarm(String id) {
        Map<String, Object> p = TEMPLATE.properties(id);
        Map<String, String> dimensions = new TreeMap<>();
        for (Map<String, Object> d : (List<Map<String, Object>>) p.get("Dimensions")) {
            Object value = d.get("Value");
            dimensions.put(
                    (String) d.get("Name"), value instanceof Map<?, ?> ref ? (String) ref.get("Ref") : (String) value);
        }
        return new Alarm(
                id,
                (String) p.get("Namespace"),
                (String) p.get("MetricName"),
                dimensions,
                (String) p.get("Statistic"),
                ((Number) p.get("Threshold")).doubleValue(),
                (String) p.get("ComparisonOperator"));
    }

    private static void ageInProgressPaste(String shortCode, Duration age) throws SQLException {
        try (Connection c = connection();
                PreparedStatement update =
                        c.prepareStatement("UPDATE pastes SET created_at = now() - make_interval(secs => ?)"
                                + " WHERE short_code = ? AND status = 'IN_PROGRESS'")) {
            update.setDouble(1, (double) age.toSeconds());
            update.setString(2, shortCode);
            assertEquals(1, update.executeUpdate(), "the paste is still IN_PROGRESS");
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
