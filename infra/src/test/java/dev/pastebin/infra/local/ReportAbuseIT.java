package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Reporting a paste through the whole local system ({@link LocalRuntimeProcess}: the template's routes, the real
 * report and read functions, PostgreSQL, and a moderation outbox queue of its own in LocalStack that this test
 * reads), and the abuse contact in /.well-known/security.txt.
 */
@RealServices
class ReportAbuseIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static LocalRuntimeProcess system;
    private static ApplicationContext aws;

    @BeforeAll
    static void start() throws Exception {
        system = LocalRuntimeProcess.shared();
        aws = ApplicationContext.run();
    }

    @AfterAll
    static void stop() throws Exception {
        if (aws != null) {
            aws.close();
        }
    }

    @Test
    void twoReportsAreStoredAndTheOperatorIsNotifiedThroughTheAbuseTopic() throws Exception {
        String code = (String) create().get("shortCode");

        HttpResponse<String> first =
                report(code, "application/json", "{\"reason\":\"phishing\",\"text\":\"fake login\"}");
        HttpResponse<String> second = report(code, "application/x-www-form-urlencoded", "reason=spam");

        assertEquals(202, first.statusCode(), first.body());
        assertEquals(202, second.statusCode(), second.body());
        assertEquals(List.of("phishing", "spam"), reasons(code));
        // the report function's outbox message, published by the runtime's ModerationOutboxFunction to the topic
        Map<String, Object> notification = notificationAbout(code);
        assertEquals("Pastebin: paste " + code + " reported (phishing)", notification.get("Subject"));
        assertTrue(
                String.valueOf(notification.get("Message"))
                        .contains("infra/admin --stack <stack name> takedown " + code),
                String.valueOf(notification.get("Message")));
    }

    /**
     * From the operator's command to the paste gone: {@code infra/admin --local takedown} through the runtime's
     * ModerationFunction removes the row and the object; every read route then answers 451, the same bytes are
     * refused on create, and the runtime's outbox function acknowledges the invalidation (the edge is off here).
     */
    @Test
    void theOperatorsTakedownCommandRemovesThePasteEverywhere() throws Exception {
        String text = "to be taken down " + UUID.randomUUID();
        String code = (String) create(text).get("shortCode");
        HttpResponse<String> readable = readOnceStored(code);
        assertEquals(200, readable.statusCode(), readable.body());

        LocalInvokeIT.Run run = system.admin("takedown", code, "--reason", "test takedown");

        assertEquals(0, run.exitCode(), run.stderr());
        Map<String, Object> answer = JSON.readValue(run.stdout(), Argument.mapOf(String.class, Object.class));
        assertEquals("taken-down", answer.get("outcome"), run.stdout());
        assertEquals("deleted", answer.get("objectDeletion"), run.stdout());
        assertEquals(true, answer.get("blocked"), run.stdout());
        // every read route (the web page /p/{code} is a shell that reads /pastes/{code}: WebPageBrowserIT)
        for (String path : List.of("/pastes/" + code, "/raw/" + code, "/" + code, "/documents/" + code)) {
            HttpResponse<String> read = HTTP.send(
                    HttpRequest.newBuilder(system.uri(path))
                            .header("Accept", "application/json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(451, read.statusCode(), path + ": " + read.body());
        }
        assertFalse(
                aws.getBean(S3Client.class).listObjectsV2(b -> b.bucket(system.bucket)).contents().stream()
                        .anyMatch(o -> o.key().contains(code)),
                "the object is deleted");
        assertError(451, "CONTENT_BLOCKED", createRaw(text));
        awaitRuntimeOutput("nothing to invalidate for " + answer.get("invalidation"));
    }

    /** A paste that is gone is answered by the report route exactly as the read route answers it. */
    @Test
    void reportingAPasteThatIsGoneAnswersAsReadingIt() throws Exception {
        Map<String, Object> created = create();
        String code = (String) created.get("shortCode");
        HttpResponse<String> deleted = HTTP.send(
                HttpRequest.newBuilder(system.uri("/pastes/" + code))
                        .header("Paste-Delete-Token", (String) created.get("deleteToken"))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, deleted.statusCode(), deleted.body());

        for (String gone : List.of(code, "zzzzzzzzzzz")) {
            HttpResponse<String> read = TestSupport.sendHonouringRetryAfter(
                    HTTP,
                    HttpRequest.newBuilder(system.uri("/pastes/" + gone))
                            .header("Accept", "application/json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> reported = report(gone, "application/json", "{\"reason\":\"illegal\"}");

            assertEquals(404, read.statusCode(), read.body());
            assertEquals(read.statusCode(), reported.statusCode(), reported.body());
            assertEquals(withoutRequestId(read.body()), withoutRequestId(reported.body()));
        }
        assertEquals(List.of(), reasons(code));
    }

    @Test
    void badReportsAreClearClientErrors() throws Exception {
        String code = (String) create().get("shortCode");

        assertError(400, "INVALID_REPORT", report(code, "application/json", "{\"reason\":\"boring\"}"));
        assertError(
                400,
                "INVALID_REPORT",
                report(code, "application/json", "{\"reason\":\"spam\",\"text\":\"" + "x".repeat(2001) + "\"}"));
        assertError(400, "MALFORMED_SHORT_CODE", report("short", "application/json", "{\"reason\":\"spam\"}"));
        assertError(415, "UNSUPPORTED_MEDIA_TYPE", report(code, "text/plain", "spam"));
        assertError(
                413, "CONTENT_TOO_LARGE", report(code, "application/json", "{\"x\":\"" + "x".repeat(17_000) + "\"}"));
        assertEquals(List.of(), reasons(code));
    }

    @Test
    void securityTxtNamesTheAbuseContact() throws Exception {
        HttpResponse<String> answer = HTTP.send(
                HttpRequest.newBuilder(system.uri("/.well-known/security.txt")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(
                "text/plain; charset=utf-8",
                answer.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(answer.body().startsWith("Contact: mailto:abuse@localhost\n"), answer.body());
        Matcher expires = Pattern.compile("(?m)^Expires: (\\S+)$").matcher(answer.body());
        assertTrue(expires.find(), answer.body());
        Instant expiry = Instant.parse(expires.group(1));
        assertTrue(
                expiry.isAfter(Instant.now()) && expiry.isBefore(Instant.now().plus(365, ChronoUnit.DAYS)),
                answer.body());
    }

    /**
     * The raw read once the upload worker has stored the paste: 202 ("still being stored") until then, which a
     * busy machine can make last seconds, so the read is repeated until it answers otherwise (within a bound).
     */
    private static HttpResponse<String> readOnceStored(String code) throws Exception {
        HttpRequest read = HttpRequest.newBuilder(system.uri("/raw/" + code)).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        HttpResponse<String> response =
                TestSupport.sendHonouringRetryAfter(HTTP, read, HttpResponse.BodyHandlers.ofString());
        while (response.statusCode() == 202 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            response = TestSupport.sendHonouringRetryAfter(HTTP, read, HttpResponse.BodyHandlers.ofString());
        }
        return response;
    }

    private static Map<String, Object> create() throws Exception {
        return create("to be reported " + UUID.randomUUID());
    }

    private static Map<String, Object> create(String text) throws Exception {
        HttpResponse<String> created = createRaw(text);
        assertEquals(201, created.statusCode(), created.body());
        return JSON.readValue(created.body(), Argument.mapOf(String.class, Object.class));
    }

    private static HttpResponse<String> createRaw(String text) throws Exception {
        return TestSupport.sendHonouringRetryAfter(
                HTTP,
                HttpRequest.newBuilder(system.uri("/pastes"))
                        .header("Content-Type", "text/plain; charset=utf-8")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> report(String code, String contentType, String body) throws Exception {
        return TestSupport.sendHonouringRetryAfter(
                HTTP,
                HttpRequest.newBuilder(system.uri("/pastes/" + code + "/report"))
                        .header("Content-Type", contentType)
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertError(int status, String code, HttpResponse<String> response) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(
                code,
                JSON.readValue(response.body(), Argument.mapOf(String.class, Object.class))
                        .get("code"),
                response.body());
    }

    private static String withoutRequestId(String errorBody) throws Exception {
        Map<String, Object> error = JSON.readValue(errorBody, Argument.mapOf(String.class, Object.class));
        error.remove("requestId");
        return error.toString();
    }

    /** The SNS envelope of the first notification about {@code code} the subscribed queue receives. */
    private static Map<String, Object> notificationAbout(String code) throws Exception {
        SqsClient sqs = aws.getBean(SqsClient.class);
        Instant deadline = Instant.now().plus(2, ChronoUnit.MINUTES);
        while (Instant.now().isBefore(deadline)) {
            for (Message message : sqs.receiveMessage(b -> b.queueUrl(system.notificationsQueueUrl)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(2))
                    .messages()) {
                Map<String, Object> envelope =
                        JSON.readValue(message.body(), Argument.mapOf(String.class, Object.class));
                if (String.valueOf(envelope.get("Subject")).contains(code)) {
                    return envelope;
                }
            }
        }
        throw new AssertionError("no notification about " + code + " reached the topic's subscriber; runtime output:\n"
                + system.output());
    }

    /** Waits (up to a minute) until the runtime's output holds {@code text}: what its functions logged. */
    private static void awaitRuntimeOutput(String text) throws InterruptedException {
        Instant deadline = Instant.now().plus(1, ChronoUnit.MINUTES);
        while (!system.output().contains(text)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the runtime never logged '" + text + "':\n" + system.output());
            }
            Thread.sleep(200);
        }
    }

    private static List<String> reasons(String code) throws Exception {
        var environment = aws.getEnvironment();
        try (Connection connection = DriverManager.getConnection(
                        environment.getRequiredProperty("datasources.default.url", String.class),
                        environment.getRequiredProperty("datasources.default.username", String.class),
                        environment.getRequiredProperty("datasources.default.password", String.class));
                PreparedStatement query =
                        connection.prepareStatement("SELECT reason FROM abuse_reports WHERE code = ? ORDER BY id")) {
            query.setString(1, code);
            List<String> reasons = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    reasons.add(rows.getString(1));
                }
            }
            return reasons;
        }
    }
}
