package dev.pastebin.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * POST /pastes/{shortCode}/report against the real database and a moderation outbox queue of its own in
 * LocalStack: pastes are created through the create function's handler in the same context. Each test counts its
 * notifications in an hour of its own ({@link ChosenNoticeHours}), far from today's and from other runs' hours, so
 * that neither the hourly budget nor the reporters' caps are shared with another test or another run.
 */
@RealServices
class ReportPasteIT {

    /** The hourly notification budget and the cap per reporter this class runs with. */
    private static final int BUDGET = 8;

    private static final int PER_REPORTER = 3;
    /** The reporters' HMAC key, in a secret of this class's own: the function reads it from there at start. */
    private static final String ADDRESS_KEY = "report-it-key-" + UUID.randomUUID();

    private static final SqsClient SQS = SqsClient.create();
    private static final SecretsManagerClient SECRETS = SecretsManagerClient.create();
    private static String addressKeySecret;
    private static final List<Message> SEEN = new ArrayList<>();
    private static String outbox;
    private static String uploads;
    private static HttpApi api;
    /** The hour the running test counts its notifications in. */
    private Instant hour;

    @BeforeAll
    static void start() {
        outbox = SQS.createQueue(b -> b.queueName("report-it-outbox-" + UUID.randomUUID()))
                .queueUrl();
        uploads = SQS.createQueue(b -> b.queueName("report-it-uploads-" + UUID.randomUUID()))
                .queueUrl();
        addressKeySecret = SECRETS.createSecret(b ->
                        b.name("report-it-address-key-" + UUID.randomUUID()).secretString(ADDRESS_KEY))
                .arn();
        api = HttpApi.start(Map.of(
                "pastebin.moderation-outbox.url", outbox,
                "pastebin.upload-queue.url", uploads,
                "pastebin.report.address-key-secret-id", addressKeySecret,
                "pastebin.report.notify-budget", BUDGET,
                "pastebin.report.notify-per-reporter", PER_REPORTER,
                "report-it.notice-hours", "chosen",
                // the parallel reports hold connections at once, as as many Lambda instances would
                "datasources.default.maximum-pool-size", 12));
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        for (String queue : new String[] {outbox, uploads}) {
            if (queue != null) {
                SQS.deleteQueue(b -> b.queueUrl(queue));
            }
        }
        if (addressKeySecret != null) {
            SECRETS.deleteSecret(b -> b.secretId(addressKeySecret).forceDeleteWithoutRecovery(true));
        }
    }

    /** A day of its own for each test: its hour and the next, at least a digest window from any other run's. */
    @BeforeEach
    void anHourOfItsOwn() {
        hour = Instant.parse("3000-01-01T00:00:00Z")
                .plus(Duration.ofDays(2L * ThreadLocalRandom.current().nextInt(1_000_000)));
        hours().set(hour);
    }

    @AfterEach
    void removeTheHoursCounters() throws SQLException {
        for (String table : List.of("report_notice_hours", "report_reporter_hours")) {
            try (Connection connection = database();
                    PreparedStatement delete =
                            connection.prepareStatement("DELETE FROM " + table + " WHERE hour >= ? AND hour < ?")) {
                delete.setObject(1, hour.atOffset(ZoneOffset.UTC));
                delete.setObject(2, hour.plus(Duration.ofDays(2)).atOffset(ZoneOffset.UTC));
                delete.executeUpdate();
            }
        }
    }

    @Test
    void aReportIsStoredAndTwoReportsWithinTheHourNotifyOnce() throws Exception {
        String code = create();

        HttpApi.Response first = report(
                code,
                "application/json",
                "{\"reason\":\"phishing\",\"text\":\"a fake " + "bank login\",\"contact\":\"me@example.org\"}");
        HttpApi.Response second = report(code, "application/x-www-form-urlencoded", "reason=spam&text=again%21");

        assertEquals(202, first.status(), first.text());
        assertEquals(202, second.status(), second.text());
        assertEquals("no-store", first.header("Cache-Control"));
        Map<String, Object> receipt = json(first);
        assertEquals(code, receipt.get("shortCode"));
        assertEquals("RECEIVED", receipt.get("status"));

        List<List<String>> rows =
                rows("SELECT reason, text, contact, reporter_hash FROM abuse_reports WHERE code = ? ORDER BY id", code);
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(
                List.of("phishing", "a fake bank login", "me@example.org"),
                rows.get(0).subList(0, 3));
        assertEquals("spam", rows.get(1).get(0));
        assertEquals("again!", rows.get(1).get(1));
        assertNull(rows.get(1).get(2));
        String hash = rows.get(0).get(3);
        assertTrue(hash.matches("[0-9a-f]{64}"), hash);
        assertEquals(hash, rows.get(1).get(3), "one address, one hash");
        assertFalse(hash.contains("203.0.113.7"));

        List<Message> notices = notifications(code);
        assertEquals(1, notices.size(), "one notification per paste per hour: " + notices);
        Map<String, Object> notice =
                JsonMapper.createDefault().readValue(notices.get(0).body(), Argument.mapOf(String.class, Object.class));
        assertEquals("notify", notice.get("kind"));
        assertEquals("report:" + code, notice.get("reference"));
        assertTrue(((String) notice.get("subject")).contains(code), notice.toString());
        assertFalse(((String) notice.get("message")).contains("bank login"), "the reporter's text stays stored");
    }

    /**
     * The stored hash is HMAC-SHA-256 of the reporter's address with the key the function read from its secret
     * (pastebin.report.address-key-secret-id), not a key of its configuration: anyone with the key can reverse an
     * IPv4 address's hash by hashing all 2^32 addresses, so the key is in no function's environment.
     */
    @Test
    void theReporterHashIsTheAddressesHmacWithTheKeyReadFromSecretsManager() throws Exception {
        String code = create();

        assertEquals(202, report(code, "203.0.113.9").status());

        Mac hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(ADDRESS_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = HexFormat.of().formatHex(hmac.doFinal("203.0.113.9".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of(List.of(expected)), rows("SELECT reporter_hash FROM abuse_reports WHERE code = ?", code));
    }

    @Test
    void aNoticeOlderThanTheIntervalLetsTheNextReportNotifyAgain() throws Exception {
        String code = create();
        assertEquals(
                202,
                report(code, "application/json", "{\"reason\":\"malware\"}").status());
        execute("UPDATE report_notices SET notified_at = now() - interval '61 minutes' WHERE code = ?", code);

        assertEquals(
                202,
                report(code, "application/json", "{\"reason\":\"malware\"}").status());

        assertEquals(2, notifications(code).size());
    }

    /**
     * Many pastes reported at once by as many addresses: the notifications of the hour stop exactly at the budget
     * (8 in this class), and the first report past it sends the one notice that the budget is spent. The rest are
     * stored without a notice.
     */
    @Test
    void parallelReportsPastTheHourlyBudgetNotifyExactlyTheBudgetAndOneBudgetNotice() throws Exception {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < BUDGET + 4; i++) {
            codes.add(create());
        }
        int before = budgetNotices().size();

        List<HttpApi.Response> answers = inParallel(codes.size(), i -> report(codes.get(i), "198.51.100." + (i + 1)));

        for (HttpApi.Response answer : answers) {
            assertEquals(202, answer.status(), answer.text());
        }
        long notified =
                codes.stream().filter(code -> !notifications(code).isEmpty()).count();
        assertEquals(BUDGET, notified, "notifications of reported pastes this hour");
        assertEquals(1, budgetNotices().size() - before, "one notice that the budget is spent: " + budgetNotices());
        Map<String, Long> notices = new TreeMap<>();
        for (String code : codes) {
            List<List<String>> stored = rows("SELECT notice FROM abuse_reports WHERE code = ?", code);
            assertEquals(1, stored.size(), "stored: " + code);
            notices.merge(stored.getFirst().getFirst(), 1L, Long::sum);
        }
        assertEquals(Map.of("sent", (long) BUDGET, "over-budget", 4L), notices);
        String spent = (String) message(budgetNotices().getLast()).get("message");
        assertTrue(spent.contains("stored without a notice"), spent);

        // the next hour: its first report is notified, and sends the digest of this one; the second sends none
        hours().set(hour.plus(Duration.ofHours(1)));
        String next = create();
        assertEquals(202, report(next, "198.51.100.101").status());
        assertEquals(202, report(create(), "198.51.100.102").status());

        assertEquals(1, notifications(next).size(), "the next hour has a budget of its own");
        List<Message> digests = digestsOf(hour);
        assertEquals(1, digests.size(), "one digest of the hour: " + digests);
        String digest = (String) message(digests.getFirst()).get("message");
        assertTrue(digest.startsWith("4 more pastes were reported in the hour from " + hour), digest);
        assertTrue(digest.contains("abuse_reports"), digest);
    }

    /** Reports landing exactly on the budget notify each paste and send no notice that it is spent, nor a digest. */
    @Test
    void reportsExactlyOnTheBudgetSendNoBudgetNotice() throws Exception {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < BUDGET; i++) {
            codes.add(create());
        }
        int before = budgetNotices().size();

        inParallel(codes.size(), i -> report(codes.get(i), "198.51.100." + (i + 1)));

        assertEquals(
                BUDGET,
                codes.stream().filter(code -> !notifications(code).isEmpty()).count());
        assertEquals(before, budgetNotices().size(), "the budget is used, not overrun");
        hours().set(hour.plus(Duration.ofHours(1)));
        String next = create();
        assertEquals(202, report(next, "198.51.100.101").status());
        assertEquals(1, notifications(next).size());
        assertEquals(List.of(), digestsOf(hour), "no digest of an hour that stayed within its budget");
    }

    /**
     * One address reporting many pastes notifies the operator of its first {@value #PER_REPORTER} an hour; its
     * later reports are stored without a notice, and do not stop another reporter's report of the same paste.
     */
    @Test
    void oneReporterNotifiesAtMostItsCapAnHour() throws Exception {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < PER_REPORTER + 2; i++) {
            codes.add(create());
        }

        for (String code : codes) {
            assertEquals(202, report(code, "192.0.2.66").status());
        }

        List<Integer> notices =
                codes.stream().map(code -> notifications(code).size()).toList();
        assertEquals(List.of(1, 1, 1, 0, 0), notices, "the reporter's first three pastes are notified");
        List<List<String>> stored = new ArrayList<>();
        for (String code : codes) {
            stored.addAll(rows("SELECT notice FROM abuse_reports WHERE code = ?", code));
        }
        assertEquals(
                List.of(
                        List.of("sent"),
                        List.of("sent"),
                        List.of("sent"),
                        List.of("reporter-cap"),
                        List.of("reporter-cap")),
                stored,
                "every report is stored");

        assertEquals(202, report(codes.getLast(), "192.0.2.67").status());

        assertEquals(1, notifications(codes.getLast()).size(), "another reporter's report of it notifies");
        assertEquals(
                List.of(List.of("reporter-cap"), List.of("sent")),
                rows("SELECT notice FROM abuse_reports WHERE code = ? ORDER BY id", codes.getLast()));

        hours().set(hour.plus(Duration.ofHours(1)));
        String next = create();
        assertEquals(202, report(next, "192.0.2.66").status());
        assertEquals(1, notifications(next).size(), "the reporter's next hour notifies again");
    }

    /** Unknown, expired, deleted (or taken down: its row is gone too): the answer a read of a missing paste gets. */
    @Test
    void aPasteReadersCannotSeeIsAnsweredAsAMissingOne() throws Exception {
        String expired = create();
        execute("UPDATE pastes SET expires_at = now() - interval '1 minute' WHERE short_code = ?", expired);
        String deleted = create();
        execute("DELETE FROM pastes WHERE short_code = ?", deleted);
        String unknown = "zZ9" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

        for (String code : List.of(expired, deleted, unknown)) {
            HttpApi.Response response = report(code, "application/json", "{\"reason\":\"illegal\"}");

            assertEquals(404, response.status(), code + ": " + response.text());
            Map<String, Object> error = json(response);
            assertEquals("PASTE_NOT_FOUND", error.get("code"));
            assertEquals("No paste " + code, error.get("message"), "as GET /pastes/{code} answers it");
            assertEquals(List.of(), rows("SELECT reason FROM abuse_reports WHERE code = ?", code));
        }
        assertEquals(List.of(), notifications(unknown));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "400 INVALID_REPORT application/json {\"reason\":\"boring\"}",
                "400 INVALID_REPORT application/json {}",
                "400 INVALID_REPORT application/json {\"reason\":\"spam\",\"text\":42}",
                "400 INVALID_REPORT application/json {\"reason\":\"spam\",\"contact\":\"a\\u0000b\"}",
                "400 INVALID_JSON application/json {\"reason\":\"spam\",\"reason\":\"other\"}",
                "400 INVALID_JSON application/json [\"spam\"]",
                "400 INVALID_REPORT application/x-www-form-urlencoded reason=",
                "400 BAD_REQUEST application/x-www-form-urlencoded reason=spam&text=%zz",
                "415 UNSUPPORTED_MEDIA_TYPE text/plain spam",
                "415 UNSUPPORTED_MEDIA_TYPE application/json;charset=latin1 {\"reason\":\"spam\"}",
            })
    void badInputIsAClearClientError(String testCase) throws Exception {
        String[] parts = testCase.split(" ", 4);
        String code = create();

        HttpApi.Response response = report(code, parts[2], parts[3]);

        assertEquals(Integer.parseInt(parts[0]), response.status(), response.text());
        assertEquals(parts[1], json(response).get("code"), response.text());
        assertEquals(List.of(), rows("SELECT reason FROM abuse_reports WHERE code = ?", code));
    }

    @Test
    void tooLongTextAContactOrABodyAreRefusedByName() throws Exception {
        String code = create();

        HttpApi.Response text =
                report(code, "application/json", "{\"reason\":\"spam\",\"text\":\"" + "x".repeat(2001) + "\"}");
        HttpApi.Response contact =
                report(code, "application/json", "{\"reason\":\"spam\",\"contact\":\"" + "x".repeat(321) + "\"}");
        HttpApi.Response body =
                report(code, "application/json", "{\"reason\":\"spam\",\"x\":\"" + "x".repeat(20_000) + "\"}");
        HttpApi.Response withinLimits = report(
                code,
                "application/json",
                "{\"reason\":\"other\",\"text\":\"" + "é".repeat(2000) + "\",\"contact\":\"" + "x".repeat(320) + "\"}");

        assertEquals(400, text.status(), text.text());
        assertTrue(json(text).get("message").toString().contains("\"text\""), text.text());
        assertEquals(400, contact.status(), contact.text());
        assertTrue(json(contact).get("message").toString().contains("\"contact\""), contact.text());
        assertEquals(413, body.status(), body.text());
        assertEquals("CONTENT_TOO_LARGE", json(body).get("code"));
        assertEquals(202, withinLimits.status(), withinLimits.text());
    }

    @Test
    void aCodeOfTheWrongShapeIsRefusedBeforeAnyLookup() throws Exception {
        HttpApi.Response response = report("not-a-code!", "application/json", "{\"reason\":\"spam\"}");

        assertEquals(400, response.status(), response.text());
        assertEquals("MALFORMED_SHORT_CODE", json(response).get("code"));
    }

    private static String create() throws Exception {
        HttpApi.Response created = api.send(api.fixture("create-paste-json").textBody("{\"content\":\"reported\"}"));
        assertEquals(201, created.status(), created.text());
        return (String) json(created).get("shortCode");
    }

    /** A spam report of {@code code} from the address {@code address} (API Gateway's source IP). */
    private static HttpApi.Response report(String code, String address) {
        HttpApi.Request request = api.fixture("report-paste")
                .path("/pastes/" + code + "/report")
                .header("Content-Type", "application/json")
                .binaryBody("{\"reason\":\"spam\"}".getBytes(StandardCharsets.UTF_8));
        request.event().getRequestContext().getHttp().setSourceIp(address);
        request.event().getHeaders().remove("x-forwarded-for");
        return api.send(request);
    }

    /** {@code count} calls of {@code call} (0 to count - 1) released at once on threads of their own. */
    private static <T> List<T> inParallel(int count, IntFunction<T> call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(count)) {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> {
                    start.await();
                    return call.apply(index);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }

    /** The notices that the hour's notification budget is spent, of all this class has seen. */
    private static List<Message> budgetNotices() {
        notifications("");
        return SEEN.stream()
                .filter(message -> message.body().contains("\"report-budget:"))
                .toList();
    }

    private static HttpApi.Response report(String code, String contentType, String body) {
        return api.send(api.fixture("report-paste")
                .path("/pastes/" + code + "/report")
                .header("Content-Type", contentType)
                .binaryBody(body.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The outbox's notify messages about this paste. Every report's message is sent before its 202, so the queue
     * already holds them: it is drained (until a receive finds nothing) into what this class has seen.
     */
    private static List<Message> notifications(String code) {
        for (List<Message> messages = receive(); !messages.isEmpty(); messages = receive()) {
            for (Message message : messages) {
                SEEN.add(message);
                SQS.deleteMessage(b -> b.queueUrl(outbox).receiptHandle(message.receiptHandle()));
            }
        }
        return SEEN.stream()
                .filter(message -> message.body().contains("\"report:" + code + "\""))
                .toList();
    }

    private static List<Message> receive() {
        return SQS.receiveMessage(
                        b -> b.queueUrl(outbox).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
    }

    /** The digests of the hour that starts at {@code hour}, of all this class has seen. */
    private static List<Message> digestsOf(Instant hour) {
        notifications("");
        return SEEN.stream()
                .filter(message -> message.body().contains("\"report-digest:" + hour + "\""))
                .toList();
    }

    private static ChosenNoticeHours hours() {
        return api.context().getBean(ChosenNoticeHours.class);
    }

    private static Map<String, Object> message(Message message) throws Exception {
        return JsonMapper.createDefault().readValue(message.body(), Argument.mapOf(String.class, Object.class));
    }

    private static Map<String, Object> json(HttpApi.Response response) throws Exception {
        return JsonMapper.createDefault().readValue(response.body(), Argument.mapOf(String.class, Object.class));
    }

    private static List<List<String>> rows(String sql, String code) throws SQLException {
        try (Connection connection = database();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, code);
            List<List<String>> rows = new ArrayList<>();
            try (ResultSet result = query.executeQuery()) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= columns; i++) {
                        row.add(result.getString(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /** A connection of the test's own, outside the function's transaction management. */
    private static Connection database() throws SQLException {
        var environment = api.context().getEnvironment();
        return DriverManager.getConnection(
                environment.getRequiredProperty("datasources.default.url", String.class),
                environment.getRequiredProperty("datasources.default.username", String.class),
                environment.getRequiredProperty("datasources.default.password", String.class));
    }

    private static void execute(String sql, String code) throws SQLException {
        try (Connection connection = database();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, code);
            statement.executeUpdate();
        }
    }
}
