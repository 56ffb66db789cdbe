package dev.pastebin.moderation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.moderation.OutboxMessage;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.FaultProxy.Fault;
import dev.pastebin.local.lambda.InProcessFunction;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import dev.pastebin.moderation.outbox.ModerationOutboxHandler;
import dev.pastebin.upload.UploadHandler;
import io.micronaut.context.ApplicationContext;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A takedown while S3 is down (docs/design.md, "Takedowns and the blocklist"), through the real handlers against
 * PostgreSQL and LocalStack, with every S3 call of the functions going through the fault proxy: the moderation
 * function's, the moderation outbox function's, the upload worker's and the read function's (its routes through
 * API Gateway's event). The paste is still being stored: its job's PUT failed and the job waits for its retry, so
 * the paste would be stored, and readable, as soon as S3 is back, unless the takedown has committed by then. The
 * queues feed the handlers as Lambda's event source mapping does (the local runtime's, one batch at a time).
 */
@RealServices
class TakedownDuringS3OutageIT {

    private static final URI LOCALSTACK =
            URI.create(Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("http://127.0.0.1:4566"));
    private static final String OPERATOR = "arn:aws:iam::000000000000:user/operator";
    /** The read routes, as TakenDownReadIT (read-function) checks them one by one. */
    private static final List<String> READ_ROUTES =
            List.of("/pastes/%s", "/%s", "/%s.py", "/raw/%s", "/raw/%s.txt", "/documents/%s", "/documents/%s.js");

    /** The test's own clients, straight to LocalStack (never through the proxy). */
    private final S3Client s3 = S3Client.builder().forcePathStyle(true).build();

    private final SqsClient sqs = SqsClient.create();
    private final String bucket =
            "takedown-outage-" + UUID.randomUUID().toString().substring(0, 8);
    private FaultProxy proxy;
    private TestQueues.Pair uploads;
    private TestQueues.Pair outbox;
    private ApplicationContext context;
    private HttpApi reads;
    private ModerationHandler moderation;
    private SqsEventSourceMapping uploadTrigger;
    private SqsEventSourceMapping outboxTrigger;

    @BeforeEach
    void start() throws IOException {
        proxy = new FaultProxy(LOCALSTACK);
        s3.createBucket(b -> b.bucket(bucket));
        uploads = TestQueues.create(sqs, "takedown-outage-uploads", 10, 30);
        // a short visibility timeout: a message the outbox function reports comes back within seconds
        outbox = TestQueues.create(sqs, "takedown-outage-outbox", 10, 2);
        Map<String, Object> properties = new HashMap<>();
        properties.put("pastebin.storage.bucket", bucket);
        // every S3 call of the functions goes through the proxy
        properties.put("aws.services.s3.endpoint-override", proxy.endpoint().toString());
        properties.put("pastebin.moderation-outbox.url", outbox.queueUrl());
        // the edge is off: the outbox function acknowledges an invalidation and logs it
        properties.put("pastebin.outbox.distribution-id", "");
        properties.put("pastebin.upload-queue.url", uploads.queueUrl());
        properties.put("pastebin.upload-dlq.url", uploads.deadLetterQueueUrl());
        properties.put("pastebin.delivery.queue.max-receive-count", 10);
        properties.put("pastebin.upload.s3-attempt-timeout", "1s");
        properties.put("pastebin.upload.s3-call-timeout", "2s");
        properties.put("pastebin.upload.remaining-time-margin", "5s");
        // the retry schedule alone: the job waits for its next attempt; a breaker of its own all the same
        properties.put("pastebin.breaker.enabled", false);
        properties.put(
                "pastebin.breaker.name", "it-" + UUID.randomUUID().toString().substring(0, 8));
        context = ApplicationContext.builder()
                .environments("test")
                .properties(properties)
                .start();
        moderation = new ModerationHandler(context);
        reads = HttpApi.start(properties);
        UploadHandler uploadHandler = new UploadHandler(context);
        Supplier<Context> lambdaContext = () -> TestLambdaContext.withRemaining(Duration.ofMinutes(5));
        // each queue as its function's trigger in the template feeds it (batches of 10, batch item failures)
        uploadTrigger = new SqsEventSourceMapping(
                InProcessFunction.of("UploadPasteFunction", uploadHandler, SQSEvent.class, lambdaContext),
                new SqsEventSourceMapping.Settings(10, Duration.ZERO, true, 2),
                sqs,
                SqsEventSourceMapping.Queue.at(sqs, uploads.queueUrl()),
                System.err);
        outboxTrigger = new SqsEventSourceMapping(
                InProcessFunction.of(
                        "ModerationOutboxFunction",
                        new ModerationOutboxHandler(context),
                        SQSEvent.class,
                        lambdaContext),
                new SqsEventSourceMapping.Settings(10, Duration.ZERO, true, 2),
                sqs,
                SqsEventSourceMapping.Queue.at(sqs, outbox.queueUrl()),
                System.err);
    }

    @AfterEach
    void stop() {
        proxy.recover();
        if (reads != null) {
            reads.close();
        }
        if (context != null) {
            context.close();
        }
        TestQueues.delete(sqs, uploads);
        TestQueues.delete(sqs, outbox);
        s3.listObjectsV2(b -> b.bucket(bucket))
                .contents()
                .forEach(o -> s3.deleteObject(d -> d.bucket(bucket).key(o.key())));
        s3.deleteBucket(b -> b.bucket(bucket));
        proxy.close();
        s3.close();
        sqs.close();
    }

    /** An IN_PROGRESS row and its job in the upload queue, as the create function leaves them. */
    private Paste createdPaste(byte[] content) {
        PasteRepository pastes = context.getBean(PasteRepository.class);
        Paste paste = pastes.save(TestPastes.inProgress(
                context.getBean(ShortCodes.class).next(), null, ContentHash.sha256Hex(content), content.length));
        String job = context.getBean(UploadJobCodec.class)
                .encode(new UploadJob(paste.shortCode(), paste.contentSha256(), content));
        sqs.sendMessage(b -> b.queueUrl(uploads.queueUrl()).messageBody(job));
        return paste;
    }

    /**
     * Long-polls {@code trigger}'s queue until {@code count} messages have been received (each poll waits up to a
     * second for one; a message comes back once its visibility timeout is over).
     */
    private static List<Message> receive(SqsEventSourceMapping trigger, int count) {
        List<Message> received = new ArrayList<>();
        for (int polls = 0; received.size() < count && polls < 60; polls++) {
            received.addAll(trigger.receive(10, 1));
        }
        assertEquals(
                count,
                received.size(),
                "messages received from " + trigger.queue().url());
        return received;
    }

    private HttpApi.Response read(String path) {
        return reads.send(reads.fixture("read-paste").path(path).header("Accept", "application/json"));
    }

    /** Every read route answers 451 PASTE_TAKEN_DOWN, and the one with HEAD too. */
    private void assertTakenDownOnEveryReadRoute(String code) throws IOException {
        for (String route : READ_ROUTES) {
            String path = route.formatted(code);
            HttpApi.Response response = read(path);
            assertEquals(451, response.status(), path + ": " + response.text());
            assertEquals(
                    "PASTE_TAKEN_DOWN",
                    reads.context()
                            .getBean(JsonMapper.class)
                            .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                            .get("code"),
                    path);
        }
        HttpApi.Response head =
                reads.send(reads.fixture("read-paste").method("HEAD").path("/pastes/" + code));
        assertEquals(451, head.status(), "HEAD /pastes/" + code);
    }

    private Optional<byte[]> object(String code) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key("pastes/" + code))
                    .asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /** The kind of an outbox message. */
    private String kindOf(Message message) {
        try {
            return context.getBean(ObjectMapper.class)
                    .readValue(message.body(), OutboxMessage.class)
                    .kind();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aTakedownCommitsWhileS3IsDownAndThePasteNeverBecomesReadable() throws Exception {
        byte[] content = ("held while S3 is down " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        Paste paste = createdPaste(content);
        String code = paste.shortCode();

        // S3 is down for every function: its connections are dropped, PUTs and deletes alike.
        proxy.outage(Fault.DROP_CONNECTION);
        Message job = receive(uploadTrigger, 1).getFirst();
        assertEquals(Set.of(), uploadTrigger.process(List.of(job)), "the job is reported, not acknowledged");
        assertEquals(1, proxy.putCount(code), "the job's PUT, failed: the job waits for its retry");
        assertEquals(202, read("/pastes/" + code).status(), "still being stored");
        // An earlier PUT that S3 stored though its answer was lost: the object the takedown must delete. (The proxy
        // forwards no PUT while S3 is down, so the test writes it straight to LocalStack.)
        s3.putObject(b -> b.bucket(bucket).key("pastes/" + code), RequestBody.fromBytes(content));

        ModerationAnswer answer =
                moderation.handle(new ModerationCommand("takedown", code, null, "court order 43", OPERATOR, null));

        assertEquals("taken-down", answer.outcome(), answer.toString());
        assertEquals("IN_PROGRESS", answer.stateRemoved());
        assertEquals("pending", answer.objectDeletion(), "S3 refused the delete: the outbox has it");
        assertTrue(answer.note().startsWith("the object's deletion is pending"), answer.note());
        assertTrue(context.getBean(PasteRepository.class).findById(code).isEmpty(), "committed: no row");
        assertTrue(context.getBean(TakedownRepository.class).existsById(code), "committed: the tombstone");
        assertTakenDownOnEveryReadRoute(code);
        assertTrue(object(code).isPresent(), "S3 is still down");

        // The outbox function while S3 is still down: the invalidation goes through, the delete is retried later.
        List<Message> sent = receive(outboxTrigger, 2);
        Message delete = sent.stream()
                .filter(m -> kindOf(m).equals("delete-objects"))
                .findFirst()
                .orElseThrow();
        Message invalidate = sent.stream()
                .filter(m -> kindOf(m).equals("invalidate"))
                .findFirst()
                .orElseThrow();
        assertEquals(Set.of(invalidate.messageId()), outboxTrigger.process(sent), "the delete is reported");

        proxy.recover();

        // The delete comes back after the queue's visibility timeout, and S3 takes it.
        Message retried = receive(outboxTrigger, 1).getFirst();
        assertEquals(delete.messageId(), retried.messageId());
        assertEquals(Set.of(delete.messageId()), outboxTrigger.process(List.of(retried)));
        assertTrue(object(code).isEmpty(), "the object is gone");

        // The job's retry, now that S3 answers: no row, so no PUT; acknowledged.
        Message again = receive(uploadTrigger, 1).getFirst();
        assertEquals(job.messageId(), again.messageId());
        assertEquals(Set.of(job.messageId()), uploadTrigger.process(List.of(again)), "acknowledged");
        assertEquals(1, proxy.putCount(code), "no PUT of the taken-down content");
        assertTrue(object(code).isEmpty());
        assertTrue(context.getBean(PasteRepository.class).findById(code).isEmpty(), "no row came back");
        assertTakenDownOnEveryReadRoute(code);
    }
}
