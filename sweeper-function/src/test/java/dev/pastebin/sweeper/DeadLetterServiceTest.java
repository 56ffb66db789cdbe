package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.config.DeadLetterQueueProperties;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.S3Notifications;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.LargeFileProperties;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.InMemoryBreakerStore;
import io.micronaut.serde.ObjectMapper;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/**
 * The dead-letter decisions that need no real queue: requeue only while the breaker is closed, and in batches
 * of SQS's 10. What SQS and PostgreSQL really do is DeadLetterReevaluationIT's.
 */
class DeadLetterServiceTest {

    private static final BreakerProperties BREAKER = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    private static final SweeperProperties SWEEPER = new SweeperProperties(
            Duration.ofHours(24),
            Duration.ofDays(4),
            Duration.ofDays(14),
            500,
            60_000,
            Duration.ofSeconds(15),
            10_000,
            Duration.ofDays(7),
            0.05,
            20,
            Duration.ofDays(90),
            Duration.ofDays(400));

    private static final String BUCKET = "pastebin-pastes";

    private final UploadJobCodec codec = new UploadJobCodec(ObjectMapper.getDefault());
    private final InMemoryBreakerStore breakerStore = new InMemoryBreakerStore();
    private final FakeSqs sqs = new FakeSqs();
    /** Only maps staged keys to files (a local computation): no call reaches S3. */
    private final S3Client s3 = S3Client.builder()
            .region(Region.EU_CENTRAL_1)
            .credentialsProvider(AnonymousCredentialsProvider.create())
            .build();

    @AfterEach
    void closeS3() {
        s3.close();
    }

    @Test
    void pendingJobsAreRequeuedTenAtATimeAndDeletedOnlyOnceSent() {
        sqs.deadLetters(pendingJobs(25));

        DeadLetterReport report = service().reevaluate(Deadline.none());

        assertEquals(new DeadLetterReport(25, 0, 0, false), report);
        assertEquals(List.of(10, 10, 5), sqs.sendBatchSizes);
        assertEquals(List.of(10, 10, 5), sqs.deleteBatchSizes);
    }

    @Test
    void aJobSqsRefusesToRequeueStaysInTheDeadLetterQueue() {
        sqs.deadLetters(pendingJobs(3));
        sqs.refuseSendOf = Set.of("1");

        DeadLetterReport report = service().reevaluate(Deadline.none());

        assertEquals(new DeadLetterReport(2, 0, 1, false), report);
        assertEquals(List.of(2), sqs.deleteBatchSizes, "the refused one is not deleted");
    }

    @Test
    void whileTheBreakerIsNotClosedNothingIsReceived() {
        sqs.deadLetters(pendingJobs(3));
        for (BreakerState state : List.of(BreakerState.OPEN, BreakerState.HALF_OPEN)) {
            breakerStore.update(
                    "s3",
                    s -> new BreakerSnapshot(
                            state,
                            s.windowStartedAt(),
                            0,
                            0,
                            0,
                            0,
                            Instant.now(),
                            Instant.now().plusSeconds(30),
                            Duration.ofSeconds(30),
                            "test",
                            null));

            DeadLetterReport report = service().reevaluate(Deadline.none());

            assertEquals(new DeadLetterReport(0, 0, 0, true), report, state.name());
            assertEquals(0, sqs.receives, state.name());
        }
    }

    /**
     * Once every pending job waits in the dead-letter queue, no upload is left to probe the open breaker, so it
     * would never close and the jobs would wait out their retention: when the probe is due, a run requeues one
     * batch, whose first delivery probes S3.
     */
    @Test
    void whenTheOpenBreakersProbeIsDueOneBatchIsRequeuedToProbeIt() {
        sqs.deadLetters(pendingJobs(25));
        breakerStore.update(
                "s3",
                s -> new BreakerSnapshot(
                        BreakerState.OPEN,
                        s.windowStartedAt(),
                        0,
                        0,
                        0,
                        0,
                        Instant.now().minusSeconds(60),
                        Instant.now().minusSeconds(1),
                        Duration.ofSeconds(30),
                        "test",
                        null));

        DeadLetterReport report = service().reevaluate(Deadline.none());

        assertEquals(new DeadLetterReport(10, 0, 0, true), report);
        assertEquals(List.of(10), sqs.sendBatchSizes);
    }

    /**
     * S3's notifications as the worker would take them: the one staged file's paste decides (here IN_PROGRESS:
     * requeued, the body as S3 sent it and without a message group, for S3 sends none); S3's test event and a key
     * that is no staged file of this bucket need nothing and are deleted; a notification of several objects, which
     * the worker fails as poison, is kept. The real queues and rows are DeadLetterReevaluationIT's.
     */
    @Test
    void aNotificationIsJudgedByThePasteOfItsOneStagedFile() {
        String staged = notification(BUCKET, "staging/pending0/0");
        sqs.deadLetters(List.of(
                staged,
                "{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\",\"Bucket\":\"" + BUCKET + "\"}",
                notification("another-bucket", "staging/pending1/0"),
                notification(BUCKET, "pastes/pending2"),
                notification(BUCKET, "staging/pending3/0")
                        .replace("]}", "," + record(BUCKET, "staging/pending3/1") + "]}")));

        DeadLetterReport report = service().reevaluate(Deadline.none());

        assertEquals(new DeadLetterReport(1, 3, 1, false), report);
        assertEquals(List.of(staged), sqs.sentBodies);
        assertEquals(Collections.singletonList(null), sqs.sentGroups, "no message group: S3 sends none");
    }

    private DeadLetterService service() {
        PasteRepository everyPasteInProgress = (PasteRepository) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {PasteRepository.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "findById" ->
                        Optional.of(new Paste(
                                (String) args[0],
                                null,
                                "a".repeat(64),
                                7,
                                null,
                                PasteStatus.IN_PROGRESS,
                                null,
                                0,
                                Instant.now(),
                                Instant.now(),
                                null,
                                null,
                                false,
                                null,
                                null,
                                null,
                                null));
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        var breaker = new S3CircuitBreaker(
                breakerStore, BREAKER, new FailureClassifier(), new CapturedMetrics().metrics("sweeper"));
        return new DeadLetterService(
                sqs,
                codec,
                new S3Notifications(ObjectMapper.getDefault()),
                new LargeFileStore(
                        s3,
                        new StorageProperties(BUCKET, "pastes/"),
                        new LargeFileProperties(
                                1024, 10, 10_240, Duration.ofMinutes(15), Duration.ofMinutes(5), "staging/", "files/")),
                everyPasteInProgress,
                new UploadQueueProperties("upload", 1_048_576),
                new DeadLetterQueueProperties("dlq"),
                SWEEPER,
                breaker);
    }

    private List<String> pendingJobs(int count) {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] content = ("content " + i).getBytes(StandardCharsets.UTF_8);
            jobs.add(codec.encode(new UploadJob("pending" + i, ContentHash.sha256Hex(content), content)));
        }
        return jobs;
    }

    /** S3's notification of one object created, as it sends it to SQS. */
    private static String notification(String bucket, String key) {
        return "{\"Records\":[" + record(bucket, key) + "]}";
    }

    private static String record(String bucket, String key) {
        return "{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"eu-central-1\","
                + "\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
                + "\"bucket\":{\"name\":\"" + bucket + "\",\"arn\":\"arn:aws:s3:::" + bucket + "\"},"
                + "\"object\":{\"key\":\"" + key + "\",\"size\":20}}}";
    }

    /** A dead-letter queue in memory: each receive takes up to its maximum; records the batch calls' sizes. */
    private static final class FakeSqs implements SqsClient {

        private final Deque<Message> waiting = new ArrayDeque<>();
        final List<Integer> sendBatchSizes = new ArrayList<>();
        final List<String> sentBodies = new ArrayList<>();
        final List<String> sentGroups = new ArrayList<>();
        final List<Integer> deleteBatchSizes = new ArrayList<>();
        Set<String> refuseSendOf = Set.of();
        int receives;

        void deadLetters(List<String> bodies) {
            for (int i = 0; i < bodies.size(); i++) {
                waiting.add(Message.builder()
                        .messageId("m" + i)
                        .receiptHandle("r" + i)
                        .body(bodies.get(i))
                        .build());
            }
        }

        @Override
        public ReceiveMessageResponse receiveMessage(ReceiveMessageRequest request) {
            receives++;
            List<Message> batch = new ArrayList<>();
            while (batch.size() < request.maxNumberOfMessages() && !waiting.isEmpty()) {
                batch.add(waiting.poll());
            }
            return ReceiveMessageResponse.builder().messages(batch).build();
        }

        @Override
        public SendMessageBatchResponse sendMessageBatch(SendMessageBatchRequest request) {
            sendBatchSizes.add(request.entries().size());
            request.entries().forEach(e -> {
                sentBodies.add(e.messageBody());
                sentGroups.add(e.messageGroupId());
            });
            var response = SendMessageBatchResponse.builder();
            response.successful(request.entries().stream()
                    .filter(e -> !refuseSendOf.contains(e.id()))
                    .map(e -> SendMessageBatchResultEntry.builder().id(e.id()).build())
                    .toList());
            response.failed(request.entries().stream()
                    .filter(e -> refuseSendOf.contains(e.id()))
                    .map(e -> BatchResultErrorEntry.builder()
                            .id(e.id())
                            .code("InternalError")
                            .senderFault(false)
                            .build())
                    .toList());
            return response.build();
        }

        @Override
        public DeleteMessageBatchResponse deleteMessageBatch(DeleteMessageBatchRequest request) {
            deleteBatchSizes.add(request.entries().size());
            return DeleteMessageBatchResponse.builder().build();
        }

        @Override
        public String serviceName() {
            return "sqs";
        }

        @Override
        public void close() {}
    }
}
