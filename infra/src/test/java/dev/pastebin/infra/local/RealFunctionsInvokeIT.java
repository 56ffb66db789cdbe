package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code infra/local/invoke} with every sample event of infra/events against the real template and the
 * real function artifacts (its own queue and bucket), as `sam local invoke -e` would run them, in the order
 * of a paste's life: created, read while IN_PROGRESS, uploaded, read, redelivered next to a poison message.
 */
@RealServices
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealFunctionsInvokeIT {

    private static TestQueues.Pair queue;
    private static TestQueues.Pair outbox;
    private static Map<String, String> env;

    /** The paste the sample upload job is for, as create-function would have left it. */
    private static final String SAMPLE_CODE = "aB3xYz9Q";

    @BeforeAll
    static void resources() throws Exception {
        // infra/local/up applies the migrations; a test run may start from any database: apply them, then
        // (re)insert the sample row.
        TestSupport.migrate();
        try (var connection = database()) {
            try (var delete = connection.prepareStatement("DELETE FROM pastes WHERE short_code = ?")) {
                delete.setString(1, SAMPLE_CODE);
                delete.executeUpdate();
            }
            try (var insert = connection.prepareStatement("INSERT INTO pastes (short_code, content_sha256, size_bytes, "
                    + "status) VALUES (?, 'eac945a947814f6ab70c3c0a122e1757f40350b15f46a94b79709d236b7a3d1e', 60, "
                    + "'IN_PROGRESS')")) {
                insert.setString(1, SAMPLE_CODE);
                insert.executeUpdate();
            }
        }
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "local-invoke", 10, 30);
            outbox = TestQueues.create(context.getBean(SqsClient.class), "local-invoke-outbox", 10, 30);
            String bucket = "local-invoke-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
            // infra/local/lib.sh names the template's queues and bucket after these (--physical-name).
            env = new HashMap<>(TestSupport.physicalNames(queue, bucket));
            env.put("PASTEBIN_MODERATION_OUTBOX", TestSupport.queueName(outbox.queueUrl()));
            env.put("PASTEBIN_MODERATION_OUTBOX_DLQ", TestSupport.queueName(outbox.deadLetterQueueUrl()));
        }
    }

    @AfterAll
    static void deleteQueue() {
        try (var context = ApplicationContext.run()) {
            TestQueues.delete(context.getBean(SqsClient.class), queue);
            TestQueues.delete(context.getBean(SqsClient.class), outbox);
        }
    }

    private static JsonNode invokeOk(String function, String event) throws Exception {
        var run = LocalInvokeIT.invoke(env, function, "infra/events/" + event);
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        return Json.MAPPER.readTree(run.stdout());
    }

    @Test
    @Order(1)
    void createAcceptsTheTextAndTheJsonSample() throws Exception {
        assertEquals(
                201,
                invokeOk("CreatePasteFunction", "create-paste-text.json")
                        .get("statusCode")
                        .asInt());
        assertEquals(
                201,
                invokeOk("CreatePasteFunction", "create-paste-json.json")
                        .get("statusCode")
                        .asInt());
    }

    @Test
    @Order(2)
    void readAnswersInProgressBeforeTheUpload() throws Exception {
        JsonNode response = invokeOk("ReadPasteFunction", "read-paste.json");
        assertEquals(202, response.get("statusCode").asInt(), response.toString());
        assertTrue(response.get("body").asText().contains("IN_PROGRESS"), response.toString());
    }

    @Test
    @Order(3)
    void theUploadJobSucceeds() throws Exception {
        JsonNode response = invokeOk("UploadPasteFunction", "upload-job.json");
        assertEquals(0, response.path("batchItemFailures").size(), response.toString());
    }

    @Test
    @Order(4)
    void readAndHeadAnswerTheUploadedContent() throws Exception {
        JsonNode get = invokeOk("ReadPasteFunction", "read-paste.json");
        assertEquals(200, get.get("statusCode").asInt(), get.toString());
        assertEquals(
                "Hello from the pastebin!\nGrüße, 日本語 and a tab\there.\n",
                get.get("body").asText());
        JsonNode head = invokeOk("ReadPasteFunction", "head-paste.json");
        assertEquals(200, head.get("statusCode").asInt(), head.toString());
        assertTrue(head.path("body").asText("").isEmpty(), head.toString());
    }

    /** A batch with the (already processed) job and a poison message: only the poison one is reported. */
    @ParameterizedTest(name = "{0}")
    @Order(5)
    @CsvSource({"upload-batch.json", "upload-poison.json"})
    void onlyThePoisonMessageIsReported(String event) throws Exception {
        JsonNode failures = invokeOk("UploadPasteFunction", event).path("batchItemFailures");
        assertEquals(1, failures.size(), failures.toString());
        assertEquals(
                "9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4",
                failures.get(0).get("itemIdentifier").asText());
    }

    @Test
    @Order(6)
    void theSweeperRunsOnItsScheduledEventAndDeletesAnExpiredFailedPaste() throws Exception {
        // a paste that failed 25 hours ago, past the 24-hour retention
        String expired = "sw" + UUID.randomUUID().toString().replace("-", "").substring(0, 6);
        try (var connection = database();
                var insert = connection.prepareStatement(
                        "INSERT INTO pastes (short_code, content_sha256, size_bytes, status, "
                                + "failure_reason, created_at, updated_at) VALUES (?, ?, 1, 'FAILED', 'permanent: test', "
                                + "now() - interval '26 hours', now() - interval '25 hours')")) {
            insert.setString(1, expired);
            insert.setString(2, "0".repeat(64));
            insert.executeUpdate();
        }

        JsonNode report = invokeOk("SweeperFunction", "sweeper-scheduled.json");

        // What the sweep counted is not this test's to assert: the database is shared, and any other sweeper
        // (another runtime's schedule) may have deleted the row first. The row being gone below is what it owns.
        assertTrue(
                report.path("deleted").isInt()
                        && report.path("objectsRemoved").isInt()
                        && report.path("stuckMarkedFailed").isInt()
                        && report.path("batches").asInt() >= 1
                        && report.path("remaining").isBoolean(),
                report.toString());
        // the dead-letter queue is empty: nothing to requeue, delete or keep
        assertEquals(0, report.path("deadLetters").path("requeued").asInt(-1), report.toString());
        assertEquals(0, report.path("deadLetters").path("deleted").asInt(-1), report.toString());
        assertEquals(0, report.path("deadLetters").path("kept").asInt(-1), report.toString());
        try (var connection = database();
                var query = connection.prepareStatement("SELECT count(*) FROM pastes WHERE short_code = ?")) {
            query.setString(1, expired);
            try (var rs = query.executeQuery()) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the expired FAILED paste was deleted");
            }
        }
    }

    private static java.sql.Connection database() throws java.sql.SQLException {
        String url =
                System.getenv().getOrDefault("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
        return DriverManager.getConnection(url, "pastebin", "pastebin");
    }

    /**
     * The operator's command as infra/admin sends it, through Lambda's own runtime interface client: the runtime
     * hands the function the command it deserialized, and serializes its answer.
     */
    @Test
    @Order(7)
    void theModerationFunctionAnswersTheOperatorsCommand() throws Exception {
        JsonNode answer = invokeOk("ModerationFunction", "moderation-blocklist.json");
        assertEquals("listed", answer.path("outcome").asText(), answer.toString());
        assertTrue(answer.path("entries").isArray(), answer.toString());
    }
}
