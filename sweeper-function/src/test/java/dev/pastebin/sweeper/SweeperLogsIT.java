package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.support.DatabaseLoginSecret;
import dev.pastebin.core.support.JsonLogLines;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * What the sweeper logs, as JSON lines: each names its invocation and function, the lines about a paste its
 * short code and those about a dead letter its message id. Neither paste content (in an object it removes, in
 * the dead letters it judges) nor the database password (from a secret) appears anywhere, from the cold start on.
 */
@RealServices
@OwnDatabase("sweeper")
class SweeperLogsIT {

    private static final String RUN = "lg" + UUID.randomUUID().toString().substring(0, 6);

    @Test
    void everyLineNamesItsInvocationAndNoneQuotesContentOrPassword() throws Exception {
        String marker = "content-marker-" + UUID.randomUUID();
        byte[] content = ("a paste " + marker).getBytes(StandardCharsets.UTF_8);
        String bucket = "sweeper-logs-it-" + RUN.toLowerCase(Locale.ROOT);
        String unusable = RUN + "-unusable";
        String noRow = RUN + "-norow";
        var invocation = TestLambdaContext.withPlentyOfTime();
        List<ObjectNode> lines;
        String noRowLetter;
        String garbageLetter;
        try (SqsClient sqs = SqsClient.create();
                DatabaseLoginSecret secret = DatabaseLoginSecret.create();
                JsonLogLines everything = JsonLogLines.all()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "sweeper-logs-it", 10, 30);
            Map<String, Object> properties = new HashMap<>(secret.properties());
            properties.put("pastebin.storage.bucket", bucket);
            properties.put("pastebin.upload-queue.url", queues.queueUrl());
            properties.put("pastebin.upload-dlq.url", queues.deadLetterQueueUrl());
            try (ApplicationContext context = ApplicationContext.builder()
                            .environments("test")
                            .properties(properties)
                            .start();
                    SweeperHandler handler = new SweeperHandler(context)) {
                S3Client s3 = context.getBean(S3Client.class);
                s3.createBucket(b -> b.bucket(bucket));
                DataSource dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
                try (JsonLogLines invocations = JsonLogLines.all()) {
                    // an expired FAILED paste whose recorded location is unusable: logged, its object removed
                    insertExpiredFailed(dataSource, unusable, ContentHash.sha256Hex(content));
                    s3.putObject(
                            b -> b.bucket(bucket)
                                    .key(context.getBean(StorageProperties.class)
                                            .objectKey(unusable)),
                            RequestBody.fromBytes(content));
                    // dead letters: a job (content inside) for a paste without a row, and a body that is no job
                    String job = context.getBean(UploadJobCodec.class)
                            .encode(new UploadJob(noRow, ContentHash.sha256Hex(content), content));
                    noRowLetter = sqs.sendMessage(
                                    b -> b.queueUrl(queues.deadLetterQueueUrl()).messageBody(job))
                            .messageId();
                    garbageLetter = sqs.sendMessage(
                                    b -> b.queueUrl(queues.deadLetterQueueUrl()).messageBody(marker))
                            .messageId();

                    handler.handleRequest(scheduledEvent(), invocation);
                    assertTrue(
                            MDC.getCopyOfContextMap() == null
                                    || MDC.getCopyOfContextMap().isEmpty(),
                            "the MDC is cleared after the invocation: " + MDC.getCopyOfContextMap());

                    lines = invocations.assertEachNamesItsInvocation(
                            Set.of(invocation.getAwsRequestId()), invocation.getFunctionName());
                } finally {
                    try (Connection c = dataSource.getConnection()) {
                        c.createStatement().execute("DELETE FROM pastes WHERE short_code LIKE '" + RUN + "%'");
                    }
                    s3.listObjectsV2(b -> b.bucket(bucket))
                            .contents()
                            .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
                    s3.deleteBucket(b -> b.bucket(bucket));
                }
            } finally {
                TestQueues.delete(sqs, queues);
            }

            everything.assertNowhere(marker, Base64.getEncoder().encodeToString(content), secret.password());
        }
        assertTrue(
                lines.stream()
                        .anyMatch(l -> unusable.equals(l.path("shortCode").asText())
                                && l.path("message").asText().contains("unusable")),
                "the unusable location's line: " + lines);
        assertTrue(
                lines.stream()
                        .anyMatch(l -> noRowLetter.equals(l.path("messageId").asText())
                                && noRow.equals(l.path("shortCode").asText())),
                "the dead letter for a paste without a row: " + lines);
        assertTrue(
                lines.stream()
                        .anyMatch(l -> garbageLetter.equals(l.path("messageId").asText()) && !l.has("shortCode")),
                "the dead letter that is no job: " + lines);
    }

    private static void insertExpiredFailed(DataSource dataSource, String shortCode, String sha256) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO pastes (short_code, content_sha256, size_bytes, s3_location, status, failure_reason,
                                         created_at, updated_at)
                     VALUES (?, ?, 7, 'not a location', 'FAILED', 'exhausted', now() - interval '3 days', now() - interval '3 days')""")) {
            insert.setString(1, shortCode);
            insert.setString(2, sha256);
            insert.executeUpdate();
        }
    }

    private static ScheduledEvent scheduledEvent() {
        return new ScheduledEvent()
                .withId(UUID.randomUUID().toString())
                .withDetailType("Scheduled Event")
                .withSource("aws.events");
    }
}
