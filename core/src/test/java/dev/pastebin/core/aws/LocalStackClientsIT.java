package dev.pastebin.core.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The SDK clients the functions use, against LocalStack: the S3 and SQS behaviour the upload worker's
 * retry design depends on (receive counts, visibility changes, redrive) really happens there.
 */
@RealServices
@MicronautTest(startApplication = false)
class LocalStackClientsIT {

    @Inject
    S3Client s3;

    @Inject
    SqsClient sqs;

    private TestQueues.Pair queues;

    @AfterEach
    void deleteQueues() {
        if (queues != null) {
            TestQueues.delete(sqs, queues);
        }
    }

    @Test
    void s3StoresAndReturnsTheExactBytes() {
        String bucket = "it-" + UUID.randomUUID();
        s3.createBucket(b -> b.bucket(bucket));
        byte[] content = "Grüße 🌍\r\n\tend".getBytes(StandardCharsets.UTF_8);

        s3.putObject(
                b -> b.bucket(bucket).key("pastes/abc").contentType("text/plain; charset=utf-8"),
                RequestBody.fromBytes(content));
        var object = s3.getObjectAsBytes(b -> b.bucket(bucket).key("pastes/abc"));

        assertEquals("text/plain; charset=utf-8", object.response().contentType());
        assertEquals(new String(content, StandardCharsets.UTF_8), object.asUtf8String());
        s3.deleteObject(b -> b.bucket(bucket).key("pastes/abc"));
        s3.deleteBucket(b -> b.bucket(bucket));
    }

    /**
     * SQS takes messages up to 1 MiB (since 2025), and LocalStack 4.14 enforces it as AWS does: a queue whose
     * MaximumMessageSize is 1 MiB (as the template's) takes the largest upload job, for the largest paste and the
     * longest short code, and a message of exactly 1 MiB, and refuses one byte more.
     */
    @Test
    void aOneMebibyteQueueTakesTheLargestUploadJobAndNothingLarger() throws Exception {
        queues = TestQueues.create(sqs, "it-size", 5, 30);
        assertEquals(
                "1048576",
                sqs.getQueueAttributes(b ->
                                b.queueUrl(queues.queueUrl()).attributeNames(QueueAttributeName.MAXIMUM_MESSAGE_SIZE))
                        .attributes()
                        .get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE));
        byte[] largest = new byte[PasteProperties.MAX_CONTENT_BYTES_CAP];
        Arrays.fill(largest, (byte) 1);
        String job = new UploadJobCodec(ObjectMapper.getDefault())
                .encode(new UploadJob("Z".repeat(32), ContentHash.sha256Hex(largest), largest));

        sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody(job));
        sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody("x".repeat(1_048_576)));
        var refused = assertThrows(
                SqsException.class,
                () -> sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody("x".repeat(1_048_577))));
        assertEquals(400, refused.statusCode(), refused.getMessage());

        var received = sqs.receiveMessage(b ->
                        b.queueUrl(queues.queueUrl()).maxNumberOfMessages(10).waitTimeSeconds(5))
                .messages();
        assertEquals(
                java.util.Set.of(job.length(), 1_048_576),
                received.stream().map(m -> m.body().length()).collect(java.util.stream.Collectors.toSet()));
        assertTrue(received.stream().anyMatch(m -> m.body().equals(job)));
    }

    @Test
    void receiveCountGrowsWithEachDelivery() {
        queues = TestQueues.create(sqs, "it-count", 5, 1);
        sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody("job"));

        assertEquals("1", receiveCount(receiveOne(queues.queueUrl(), Duration.ofSeconds(5))));
        // not deleted: it becomes visible again after the 1 s visibility timeout
        assertEquals("2", receiveCount(receiveOne(queues.queueUrl(), Duration.ofSeconds(10))));
    }

    @Test
    void changeMessageVisibilityDelaysTheNextDelivery() {
        queues = TestQueues.create(sqs, "it-visibility", 5, 30);
        sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody("job"));
        Message first = receiveOne(queues.queueUrl(), Duration.ofSeconds(5));

        Instant changed = Instant.now();
        sqs.changeMessageVisibility(b -> b.queueUrl(queues.queueUrl())
                .receiptHandle(first.receiptHandle())
                .visibilityTimeout(3));
        Message second = receiveOne(queues.queueUrl(), Duration.ofSeconds(15));
        Duration gap = Duration.between(changed, Instant.now());

        assertEquals("2", receiveCount(second));
        assertTrue(gap.toMillis() >= 2_500, "redelivered after " + gap.toMillis() + " ms, expected about 3 s");
        assertTrue(gap.toMillis() < 15_000, "the 30 s queue default was replaced by 3 s");
    }

    @Test
    void aMessageReceivedMaxReceiveCountTimesMovesToTheDeadLetterQueue() {
        queues = TestQueues.create(sqs, "it-redrive", 2, 1);
        sqs.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody("poison"));

        receiveOne(queues.queueUrl(), Duration.ofSeconds(5));
        receiveOne(queues.queueUrl(), Duration.ofSeconds(10));
        // the third receive attempt finds the count exhausted and the queue moves the message
        Message dead = receiveOne(queues.deadLetterQueueUrl(), Duration.ofSeconds(20), queues.queueUrl());

        assertEquals("poison", dead.body());
    }

    private Message receiveOne(String queueUrl, Duration within) {
        return receiveOne(queueUrl, within, null);
    }

    /** Polls {@code queueUrl} until one message arrives; {@code alsoPoll} is received from in between (to drive redrive). */
    private Message receiveOne(String queueUrl, Duration within, String alsoPoll) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (alsoPoll != null) {
                sqs.receiveMessage(b -> b.queueUrl(alsoPoll).waitTimeSeconds(1));
            }
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                            .waitTimeSeconds(1)
                            .maxNumberOfMessages(1)
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                    .messages();
            if (!messages.isEmpty()) {
                return messages.get(0);
            }
        }
        throw new AssertionError("no message on " + queueUrl + " within " + within);
    }

    private static String receiveCount(Message message) {
        return message.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
    }
}
