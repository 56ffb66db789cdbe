package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.StagedFileNotifications;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The sweeper's re-evaluation of the dead-letter queue, against the real PostgreSQL and a queue pair of each
 * test's own in LocalStack, invoked through the Lambda handler. The dead letters get there the way the upload
 * worker puts them there: sent to the upload queue, received and never acknowledged, until the redrive policy
 * (maxReceiveCount 1 here) moves them.
 *
 * <p>Rows are this run's ({@link #PREFIX}) only, as in SweeperHandlerIT.
 */
@RealServices
@OwnDatabase("sweeper")
class DeadLetterReevaluationIT {

    /** The message group the create sent the jobs in (docs/design.md, "The upload queue's groups"). */
    private static final String CLIENT_GROUP = "ip-e3f3184a20444189";

    private static final String PREFIX = "dl" + UUID.randomUUID().toString().substring(0, 6) + "-";
    private static final SqsClient SQS = SqsClient.create();
    /** A job of a version this code does not know, as a newer create function would send it. */
    private static final String POISON = "{\"version\":2,\"shortCode\":\"" + PREFIX + "future\",\"parts\":[]}";
    /** Neither an upload job nor one of S3's notifications. */
    private static final String NEITHER = "{\"Records\":[{\"eventSource\":\"aws:sns\"}]}";

    private TestQueues.Pair queues;
    private ApplicationContext context;
    private DataSource dataSource;
    private SweeperProperties properties;

    @BeforeEach
    void start() throws SQLException {
        queues = TestQueues.create(SQS, "sweeper-dlq-it", 1, 30);
        context = start(Map.of());
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        properties = context.getBean(SweeperProperties.class);
        deleteOurRows();
    }

    @AfterEach
    void stop() throws SQLException {
        breaker("CLOSED");
        deleteOurRows();
        context.close();
        TestQueues.delete(SQS, queues);
    }

    /** A sweeper (one Lambda instance) on this test's queues, with {@code more} properties. */
    private ApplicationContext start(Map<String, Object> more) {
        Map<String, Object> all = new HashMap<>(more);
        all.put("pastebin.upload-queue.url", queues.queueUrl());
        all.put("pastebin.upload-dlq.url", queues.deadLetterQueueUrl());
        return ApplicationContext.builder().environments("test").properties(all).start();
    }

    private SweepReport sweep(TestLambdaContext lambdaContext) {
        return new SweeperHandler(context).handleRequest(scheduledEvent(), lambdaContext);
    }

    @Test
    void eachDeadLetterEndsWhereItShould() throws Exception {
        insert("pending", "IN_PROGRESS", Duration.ofDays(2));
        insert("failed", "FAILED", Duration.ofHours(1)); // young enough to outlive the sweep's own deletes
        String pending = job("pending");
        deadLetter(List.of(POISON, job("missing"), pending, job("failed")));

        SweepReport report = sweep(TestLambdaContext.withPlentyOfTime());

        assertEquals(new DeadLetterReport(1, 2, 1, false), report.deadLetters());
        List<Message> requeued = receiveAll(queues.queueUrl());
        assertEquals(
                List.of(pending),
                requeued.stream().map(Message::body).toList(),
                "only the pending paste's job is requeued");
        assertEquals(
                "1",
                requeued.getFirst().attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT),
                "a new message: the worker's attempt budget starts again");
        assertEquals(
                CLIENT_GROUP,
                requeued.getFirst().attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
                "requeued in its client's message group, as the create sent it");
        assertEquals(List.of(POISON), everyMessageIn(queues.deadLetterQueueUrl()), "the poison message is kept");
        assertEquals(Map.of("pending", "IN_PROGRESS", "failed", "FAILED"), statuses());
    }

    /**
     * A large paste's file reaches the upload queue as S3's notification (docs/design.md, "Large files: straight to
     * S3") and is dead-lettered like a job when it exhausts its receives: it is judged by the paste its staged key
     * names. The notifications are S3's own: the test's bucket notifies the test's upload queue of objects created
     * under staging/, as the template configures the deployed bucket, and S3 sends its s3:TestEvent when that is
     * configured. The requeued notification is the body S3 sent, byte for byte: the worker parses it.
     */
    @Test
    void aDeadLetteredS3NotificationIsJudgedByThePasteOfItsStagedFile() throws Exception {
        String bucket = "sweeper-dlq-it-" + UUID.randomUUID().toString().substring(0, 8);
        try (ApplicationContext sweeper = start(Map.of("pastebin.storage.bucket", bucket))) {
            S3Client s3 = sweeper.getBean(S3Client.class);
            s3.createBucket(b -> b.bucket(bucket));
            try {
                StagedFileNotifications.toQueue(s3, SQS, bucket, queues.queueUrl());
                insertLarge("staged", "IN_PROGRESS");
                insertLarge("failed", "FAILED");
                for (String name : List.of("staged", "failed", "removed")) {
                    s3.putObject(
                            b -> b.bucket(bucket).key("staging/" + PREFIX + name + "/0"),
                            RequestBody.fromString("the file of " + name));
                }
                SQS.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody(NEITHER));
                moveToTheDeadLetterQueue(5);
                List<String> deadLetters = everyMessageIn(queues.deadLetterQueueUrl());
                String staged = theOneNaming("staging/" + PREFIX + "staged/0", deadLetters);
                theOneNaming("s3:TestEvent", deadLetters);

                SweepReport report = new SweeperHandler(sweeper)
                        .handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

                assertEquals(
                        new DeadLetterReport(1, 3, 1, false),
                        report.deadLetters(),
                        "requeued: the IN_PROGRESS paste's file; deleted: the FAILED paste's, the removed one's, the"
                                + " test event; kept: the body that is neither a job nor a notification");
                assertEquals(
                        List.of(staged),
                        receiveAll(queues.queueUrl()).stream()
                                .map(Message::body)
                                .toList(),
                        "the notification S3 sent, byte for byte");
                assertEquals(List.of(NEITHER), everyMessageIn(queues.deadLetterQueueUrl()));
                assertEquals(Map.of("staged", "IN_PROGRESS", "failed", "FAILED"), statuses());
            } finally {
                s3.listObjectsV2(b -> b.bucket(bucket))
                        .contents()
                        .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
                s3.deleteBucket(b -> b.bucket(bucket));
            }
        }
    }

    @Test
    void aJobWhoseRowIsPastTheRequeueWindowIsKeptAndItsRowLeftToBeMarkedStuck() throws Exception {
        insert("overdue", "IN_PROGRESS", properties.requeueWindow().plusHours(1));
        deadLetter(List.of(job("overdue")));

        SweepReport report = sweep(TestLambdaContext.withPlentyOfTime());

        assertEquals(new DeadLetterReport(0, 0, 1, false), report.deadLetters());
        assertEquals(List.of(), receiveAll(queues.queueUrl()));
        assertEquals(List.of(job("overdue")), everyMessageIn(queues.deadLetterQueueUrl()));
        assertEquals(Map.of("overdue", "IN_PROGRESS"), statuses(), "not yet past stuckAfter");
    }

    /**
     * A requeued job would only be held again (and, its first hold days old, be overdue at once): while the
     * breaker is not closed the dead letters stay where they are, and the first sweep after it closes requeues
     * them all, in batches.
     */
    @Test
    void deadLettersWaitWhileTheBreakerIsNotClosedAndAreAllRequeuedOnceItIs() throws Exception {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            insert("held" + i, "IN_PROGRESS", Duration.ofDays(3));
            jobs.add(job("held" + i));
        }
        deadLetter(jobs);

        for (String state : List.of("OPEN", "HALF_OPEN")) {
            breaker(state);
            SweepReport notClosed = sweep(TestLambdaContext.withPlentyOfTime());

            assertEquals(0, notClosed.deadLetters().requeued(), "breaker " + state);
            assertEquals(List.of(), receiveAll(queues.queueUrl()), "breaker " + state);
            assertEquals(
                    jobs.stream().sorted().toList(), everyMessageIn(queues.deadLetterQueueUrl()), "breaker " + state);
            assertEquals(
                    jobs.size(), visibleMessages(queues.deadLetterQueueUrl()), "not even received: breaker " + state);
        }

        breaker("CLOSED");
        SweepReport closed = sweep(TestLambdaContext.withPlentyOfTime());

        assertEquals(new DeadLetterReport(25, 0, 0, false), closed.deadLetters());
        assertEquals(
                jobs.stream().sorted().toList(),
                receiveAll(queues.queueUrl()).stream()
                        .map(Message::body)
                        .sorted()
                        .toList());
        assertEquals(List.of(), everyMessageIn(queues.deadLetterQueueUrl()));
    }

    @Test
    void aRunStopsAtItsLimitAndTheNextOneContinues() throws Exception {
        deadLetter(List.of(job("gone1"), job("gone2"), job("gone3")));

        try (ApplicationContext limited = start(Map.of("pastebin.sweeper.dead-letters-per-run", "2"))) {
            SweepReport first =
                    new SweeperHandler(limited).handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
            assertEquals(new DeadLetterReport(0, 2, 0, true), first.deadLetters());
            assertTrue(first.remaining());
        }
        assertEquals(1, everyMessageIn(queues.deadLetterQueueUrl()).size());

        SweepReport second = sweep(TestLambdaContext.withPlentyOfTime());
        assertEquals(new DeadLetterReport(0, 1, 0, false), second.deadLetters());
        assertEquals(List.of(), everyMessageIn(queues.deadLetterQueueUrl()));
    }

    @Test
    void aDeadlineThatIsAlreadyNearReceivesNothing() throws Exception {
        deadLetter(List.of(job("gone1")));

        SweepReport report = sweep(TestLambdaContext.alreadyNearTheDeadline());

        assertEquals(new DeadLetterReport(0, 0, 0, true), report.deadLetters());
        assertEquals(1, visibleMessages(queues.deadLetterQueueUrl()), "still there, and not received");
    }

    /** The job create would have sent for the test's row {@code name}. */
    private String job(String name) {
        byte[] content = ("content of " + name).getBytes(StandardCharsets.UTF_8);
        return context.getBean(UploadJobCodec.class)
                .encode(new UploadJob(PREFIX + name, ContentHash.sha256Hex(content), content));
    }

    /**
     * Puts each body in the dead-letter queue the way a worker that fails it does: sent to the upload queue (in a
     * client's message group, as the create sends its jobs),
     * received and never deleted; with maxReceiveCount 1, SQS moves it on the next receive.
     */
    private void deadLetter(List<String> bodies) {
        bodies.forEach(body -> SQS.sendMessage(
                b -> b.queueUrl(queues.queueUrl()).messageBody(body).messageGroupId(CLIENT_GROUP)));
        moveToTheDeadLetterQueue(bodies.size());
    }

    /**
     * Receives from the upload queue, never deleting, until the redrive policy has moved {@code count} messages to
     * the dead-letter queue (S3 delivers its notifications a moment after the object's PUT).
     */
    private void moveToTheDeadLetterQueue(int count) {
        for (int i = 0; i < 30 && approximateMessages(queues.deadLetterQueueUrl()) < count; i++) {
            SQS.receiveMessage(b -> b.queueUrl(queues.queueUrl())
                    .maxNumberOfMessages(10)
                    .visibilityTimeout(0)
                    .waitTimeSeconds(1));
        }
        assertEquals(count, approximateMessages(queues.deadLetterQueueUrl()), "dead-lettered by the redrive policy");
        assertEquals(0, approximateMessages(queues.queueUrl()));
    }

    private static String theOneNaming(String text, List<String> bodies) {
        List<String> naming =
                bodies.stream().filter(body -> body.contains(text)).toList();
        assertEquals(1, naming.size(), "one dead letter names " + text + ": " + bodies);
        return naming.getFirst();
    }

    private static int visibleMessages(String queueUrl) {
        return Integer.parseInt(SQS.getQueueAttributes(
                        b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    /** Visible and in-flight messages. */
    private static int approximateMessages(String queueUrl) {
        Map<QueueAttributeName, String> attributes = SQS.getQueueAttributes(b -> b.queueUrl(queueUrl)
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes();
        return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    /** Receives (and deletes) every visible message. */
    private static List<Message> receiveAll(String queueUrl) {
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = SQS.receiveMessage(b -> b.queueUrl(queueUrl)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1)
                            .messageSystemAttributeNames(
                                    MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT,
                                    MessageSystemAttributeName.MESSAGE_GROUP_ID))
                    .messages();
            batch.forEach(m -> SQS.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle())));
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }

    /**
     * The bodies of all messages in the queue, also those the sweeper's receive made invisible, through
     * LocalStack's SQS developer endpoint (it changes no message's visibility).
     */
    private List<String> everyMessageIn(String queueUrl) throws IOException, InterruptedException {
        String endpoint = System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
        URI uri = URI.create(endpoint + "/_aws/sqs/messages?ShowInvisible=true&QueueUrl="
                + URLEncoder.encode(queueUrl, StandardCharsets.UTF_8));
        String response;
        try (HttpClient http = HttpClient.newHttpClient()) {
            response = http.send(
                            HttpRequest.newBuilder(uri)
                                    .header("Accept", "application/json")
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        }
        Map<String, Object> root =
                context.getBean(JsonMapper.class).readValue(response, Argument.mapOf(String.class, Object.class));
        Object result = ((Map<?, ?>) root.get("ReceiveMessageResponse")).get("ReceiveMessageResult");
        Object messages = result instanceof Map<?, ?> r ? r.get("Message") : null;
        // one message is an object, several an array
        List<?> list = messages == null ? List.of() : messages instanceof List<?> l ? l : List.of(messages);
        return list.stream()
                .map(m -> (String) ((Map<?, ?>) m).get("Body"))
                .sorted()
                .toList();
    }

    private void insert(String name, String status, Duration age) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO pastes (short_code, content_sha256, size_bytes, status, created_at, updated_at)
                     VALUES (?, repeat('a', 64), 7, ?, now() - make_interval(secs => ?), now() - make_interval(secs => ?))""")) {
            insert.setString(1, PREFIX + name);
            insert.setString(2, status);
            insert.setLong(3, age.toSeconds());
            insert.setLong(4, age.toSeconds());
            insert.executeUpdate();
        }
    }

    /** A large paste of one staged file ({@code <code>/0}), created just now: inside its upload window. */
    private void insertLarge(String name, String status) throws SQLException {
        insert(name, status, Duration.ZERO);
        execute("INSERT INTO paste_files (file_id, short_code, position, name, size_bytes, sha256, content_type)"
                + " VALUES ('" + PREFIX + name + "/0', '" + PREFIX + name + "', 0, 'big.bin', 20, repeat('b', 64),"
                + " 'application/octet-stream')");
    }

    /** Puts the shared S3 breaker's row (this test's own database) in {@code state}, its next probe an hour away. */
    private void breaker(String state) throws SQLException {
        execute("UPDATE circuit_breakers SET state = '" + state + "', "
                + ("CLOSED".equals(state)
                        ? "opened_at = NULL, next_probe_at = NULL, cooldown_ms = 0"
                        : "opened_at = now(), next_probe_at = now() + interval '1 hour', cooldown_ms = 30000")
                + " WHERE name = 's3'");
    }

    private Map<String, String> statuses() throws SQLException {
        return PrefixedRows.statuses(dataSource, PREFIX);
    }

    private void deleteOurRows() throws SQLException {
        execute("DELETE FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static ScheduledEvent scheduledEvent() {
        return new ScheduledEvent()
                .withId(UUID.randomUUID().toString())
                .withDetailType("Scheduled Event")
                .withSource("aws.events")
                .withDetail(Map.of());
    }
}
