package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** A dependency that is down: 503 with Retry-After, and no paste left waiting for an upload that never comes. */
@RealServices
class CreatePasteOutageIT {

    @Test
    void whenTheQueueIsUnreachableThePasteIsMarkedFailedAnd503Answered() throws Exception {
        String text = "lost on the way " + UUID.randomUUID();
        // nothing listens on port 1: every SQS call is refused at once
        try (HttpApi api = HttpApi.start(Map.of(
                "aws.services.sqs.endpoint-override",
                "http://127.0.0.1:1",
                "pastebin.upload-queue.url",
                "http://127.0.0.1:1/000000000000/no-such-queue"))) {
            HttpApi.Response response =
                    api.send(api.fixture("create-paste-text").textBody(text).requestId("req-queue-down"));

            assertEquals(503, response.status(), response.text());
            assertEquals("5", response.header("Retry-After"));
            Map<String, Object> error = api.context()
                    .getBean(JsonMapper.class)
                    .readValue(response.body(), Argument.mapOf(String.class, Object.class));
            assertEquals("SERVICE_UNAVAILABLE", error.get("code"));
            assertEquals("req-queue-down", error.get("requestId"));
            assertFalse(((String) error.get("message")).contains("no-such-queue"), "no queue names in responses");

            assertPasteFailedOnce(api, text);
        }
    }

    /**
     * A command-line client's form (curl -F, pastebinit) prints the body it gets: an outage is one text line for it
     * too, like every other refusal of a form, with the same status and Retry-After; JSON only when it asks.
     */
    @Test
    void whenTheQueueIsUnreachableAFormClientGetsOnePlainLine() throws Exception {
        String text = "form lost on the way " + UUID.randomUUID();
        try (HttpApi api = HttpApi.start(Map.of(
                "aws.services.sqs.endpoint-override",
                "http://127.0.0.1:1",
                "pastebin.upload-queue.url",
                "http://127.0.0.1:1/000000000000/no-such-queue"))) {
            HttpApi.Response response = api.send(api.fixture("create-paste-text")
                    .path("/")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .binaryBody(("content=" + text.replace(' ', '+')).getBytes(StandardCharsets.UTF_8)));

            assertEquals(503, response.status(), response.text());
            assertEquals("5", response.header("Retry-After"));
            assertEquals("no-store", response.header("Cache-Control"));
            assertEquals("text/plain; charset=utf-8", response.header("Content-Type"));
            assertEquals("The upload queue is temporarily unavailable; retry later\n", response.text());
            assertPasteFailedOnce(api, text);
        }
    }

    @Test
    void whenTheQueueDoesNotExistThePasteIsMarkedFailedAnd500Answered() throws Exception {
        // A deployment error, not an outage: the one failure policy calls it permanent, so no Retry-After.
        String missingQueue = "http://localhost:4566/000000000000/no-such-queue-" + UUID.randomUUID();
        String text = "nowhere to go " + UUID.randomUUID();
        try (HttpApi api = HttpApi.start(Map.of("pastebin.upload-queue.url", missingQueue))) {
            HttpApi.Response response =
                    api.send(api.fixture("create-paste-text").textBody(text).requestId("req-no-queue"));

            assertEquals(500, response.status(), response.text());
            Map<String, Object> error = api.context()
                    .getBean(JsonMapper.class)
                    .readValue(response.body(), Argument.mapOf(String.class, Object.class));
            assertEquals("INTERNAL_ERROR", error.get("code"));
            assertFalse(((String) error.get("message")).contains("no-such-queue"), "no queue names in responses");

            assertPasteFailedOnce(api, text);
        }
    }

    /**
     * A queue whose MaximumMessageSize is smaller than the configuration says (the start-up check trusts the
     * configuration): SendMessage refuses the job for good, so the answer is 500, not "retry later", and the
     * paste is FAILED, not waiting.
     */
    @Test
    void whenTheQueueRefusesTheJobForGoodThePasteIsMarkedFailedAnd500Answered() throws Exception {
        try (SqsClient sqs = SqsClient.create()) {
            String small = sqs.createQueue(b -> b.queueName("create-small-"
                                    + UUID.randomUUID().toString().substring(0, 8))
                            .attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024")))
                    .queueUrl();
            String text = "too large for that queue " + UUID.randomUUID() + " " + "x".repeat(2_000);
            try (HttpApi api = HttpApi.start(Map.of("pastebin.upload-queue.url", small))) {
                HttpApi.Response response =
                        api.send(api.fixture("create-paste-text").textBody(text).requestId("req-too-long"));

                assertEquals(500, response.status(), response.text());
                assertNull(response.header("Retry-After"), "retrying cannot make the job fit");
                Map<String, Object> error = api.context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class));
                assertEquals("INTERNAL_ERROR", error.get("code"));
                assertPasteFailedOnce(api, text);
                assertTrue(Queues.drain(sqs, small).isEmpty());
            } finally {
                sqs.deleteQueue(b -> b.queueUrl(small));
            }
        }
    }

    private static void assertPasteFailedOnce(HttpApi api, String text) throws Exception {
        List<String[]> rows = rowsWithHash(
                api.context().getBean(DataSource.class), ContentHash.sha256Hex(text.getBytes(StandardCharsets.UTF_8)));
        assertEquals(1, rows.size(), "the row was inserted once");
        assertEquals(PasteStatus.FAILED.name(), rows.get(0)[0], "never left IN_PROGRESS");
        assertTrue(rows.get(0)[1].startsWith("enqueue failed: "), rows.get(0)[1]);
    }

    @Test
    void whenTheDatabaseIsUnreachableNothingIsEnqueuedAnd503Answered() throws Exception {
        try (SqsClient sqs = SqsClient.create()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "create-db-down-it", 10, 30);
            try (HttpApi api = HttpApi.start(Map.of(
                    "pastebin.upload-queue.url",
                    queues.queueUrl(),
                    // nothing listens on port 1: the connection is refused at once
                    "datasources.default.url",
                    "jdbc:postgresql://127.0.0.1:1/pastebin",
                    "datasources.default.connection-timeout",
                    1000,
                    "flyway.datasources.default.enabled",
                    false))) {
                HttpApi.Response response =
                        api.send(api.fixture("create-paste-json").requestId("req-db-down"));

                assertEquals(503, response.status(), response.text());
                assertEquals("5", response.header("Retry-After"));
                Map<String, Object> error = api.context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class));
                assertEquals("SERVICE_UNAVAILABLE", error.get("code"));
                assertEquals("req-db-down", error.get("requestId"));
                assertFalse(((String) error.get("message")).contains("jdbc"), "no connection details in responses");
                assertTrue(Queues.drain(sqs, queues.queueUrl()).isEmpty(), "nothing enqueued without a row");
            } finally {
                TestQueues.delete(sqs, queues);
            }
        }
    }

    private static List<String[]> rowsWithHash(DataSource dataSource, String sha256) throws Exception {
        // the plain pool, outside Micronaut Data's connection management
        try (var connection = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
                var query = connection.prepareStatement(
                        "SELECT status, failure_reason FROM pastes WHERE content_sha256 = ?")) {
            query.setString(1, sha256);
            List<String[]> rows = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    rows.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            return rows;
        }
    }
}
