package dev.pastebin.infra.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.FaultProxy.Fault;
import dev.pastebin.faults.Service;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The template parameter UploadGiveUpAfterAttempts through the whole local system, as `make run ARGS="--s3-faults
 * --parameter-overrides UploadGiveUpAfterAttempts=6"` runs it: the real template and function artifacts on the
 * local runtime, every S3 PUT of the upload function failing with 500 (a fault proxy in front of LocalStack's
 * S3, as its AWS_ENDPOINT_URL_S3). With 6, the specification's rule, the paste ends FAILED after exactly 6
 * attempts and reads answer 404; with the default it waits past them and is stored once S3 recovers. The waits
 * between attempts are shortened (the count of attempts is what the parameter changes); every wait is on the
 * paste's row, with a generous bound.
 */
@RealServices
class GiveUpParameterIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final CloudFormationTemplate TEMPLATE =
            CloudFormationTemplate.load(TestSupport.repositoryRoot().resolve("infra/template.yaml"));
    /** Six fast attempts, a slow one, a cold start on a loaded machine: a bound, not a measure. */
    private static final Duration WITHIN = Duration.ofMinutes(4);

    private static final URI LOCALSTACK =
            URI.create(System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566"));

    private static String databaseUrl;

    @AutoClose
    private FaultProxy s3;

    /** A database of its own: its own breaker row, so no other test's failures open it for this one. */
    @BeforeAll
    static void ownDatabase() throws SQLException {
        databaseUrl = OwnDatabase.Create.migrated("give_up");
    }

    @BeforeEach
    void s3Proxy() throws Exception {
        s3 = new FaultProxy(Service.S3, 0, LOCALSTACK);
    }

    @Test
    void withUploadGiveUpAfterAttemptsSixAPasteWhoseEveryPutFailsIsFailedAfterSixAttemptsAndReadsAnswer404()
            throws Exception {
        try (var runtime = start("local-give-up", List.of("--parameter-overrides", "UploadGiveUpAfterAttempts=6"))) {
            s3.outage(Fault.INTERNAL_ERROR_500);
            String code = create(runtime, "given up after six attempts");

            Row row = await().atMost(WITHIN)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> row(code), r -> !r.status().equals("IN_PROGRESS"));

            assertEquals(new Row("FAILED", 6), row, "FAILED after exactly 6 recorded attempts");
            assertEquals(6, s3.putCount(code), "6 PUTs reached S3");
            assertEquals(404, get(runtime, code).statusCode());
        }
    }

    @Test
    void withTheDefaultThePasteOutlastsItsSixAttemptsAndIsStoredOnceS3Recovers() throws Exception {
        try (var runtime = start("local-no-give-up", List.of())) {
            // a queue that moved the job to its dead-letter queue after fewer receives than the template gives (and
            // tells the upload function) would leave it there for the sweeper, minutes later, once S3 recovers
            assertEquals(
                    Integer.parseInt(String.valueOf(
                            TEMPLATE.parameter("UploadQueueMaxReceiveCount").get("Default"))),
                    runtime.queueMaxReceiveCount(),
                    "the runtime's queue redrives after the template's UploadQueueMaxReceiveCount");
            s3.outage(Fault.INTERNAL_ERROR_500);
            String content = "stored once S3 recovers";
            String code = create(runtime, content);

            await().atMost(WITHIN)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> row(code).uploadAttempts() >= 7);
            assertEquals("IN_PROGRESS", row(code).status(), "past its 6 attempts, still waiting");
            assertEquals(202, get(runtime, code).statusCode());

            s3.recover();
            await().atMost(WITHIN)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> row(code).status(), "PROCESSED"::equals);
            HttpResponse<String> read = get(runtime, code);
            assertEquals(200, read.statusCode());
            assertEquals(content, read.body());
        }
    }

    /** The runtime on this class's database, the upload function's S3 behind the proxy. */
    private LocalRuntimeProcess start(String name, List<String> flags) throws Exception {
        return LocalRuntimeProcess.start(
                name,
                Map.of(
                        "Parameters",
                                Map.of(
                                        "DATASOURCES_DEFAULT_URL",
                                        databaseUrl,
                                        // The schedule's shape (6 fast attempts, then slow retries) with its waits
                                        // shortened: 1 s between fast attempts instead of 1 to 16 s, slow retries
                                        // after 2 to 3 s instead of 15 to 20 s. What is under test is the count.
                                        "PASTEBIN_DELIVERY_MULTIPLIER",
                                        "1",
                                        "PASTEBIN_DELIVERY_HOLD_AT_LEAST",
                                        "2s",
                                        "PASTEBIN_DELIVERY_HOLD_JITTER",
                                        "1s",
                                        // a breaker of each test's own: the other test's failures, within the
                                        // breaker's 60 s window, would open it and hold this paste for minutes
                                        "PASTEBIN_BREAKER_NAME",
                                        name),
                        // the template gives the upload function its own URL (with its timeouts), which wins over the
                        // shared one
                        "UploadPasteFunction",
                                Map.of(
                                        "DATASOURCES_DEFAULT_URL",
                                        databaseUrl + "?connectTimeout=2&socketTimeout=3",
                                        "AWS_ENDPOINT_URL_S3",
                                        s3.endpoint().toString())),
                flags);
    }

    private static String create(LocalRuntimeProcess runtime, String content) throws Exception {
        var created = send(HttpRequest.newBuilder(runtime.uri("/pastes"))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(content))
                .build());
        assertEquals(201, created.statusCode(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    private static HttpResponse<String> get(LocalRuntimeProcess runtime, String code) throws Exception {
        return send(HttpRequest.newBuilder(runtime.uri("/pastes/" + code))
                .header("Accept", "text/plain")
                .GET()
                .build());
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return TestSupport.sendHonouringRetryAfter(HTTP, request, HttpResponse.BodyHandlers.ofString());
    }

    record Row(String status, int uploadAttempts) {}

    private static Row row(String code) throws SQLException {
        try (Connection c = DriverManager.getConnection(
                        databaseUrl,
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
                var statement = c.prepareStatement("SELECT status, upload_attempts FROM pastes WHERE short_code = ?")) {
            statement.setString(1, code);
            try (var result = statement.executeQuery()) {
                if (!result.next()) {
                    throw new AssertionError("no row for " + code);
                }
                return new Row(result.getString(1), result.getInt(2));
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
