package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.pastebin.core.aws.SqsProperties;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.config.DeadLetterQueueProperties;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.delivery.DeliveryQueueProperties;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.JitterStrategy;
import dev.pastebin.core.delivery.ReceiveBudget;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.S3Notifications;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.lambda.CurrentInvocation;
import dev.pastebin.core.lambda.InvocationDeadlines;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import dev.pastebin.core.support.EmptyBlocklist;
import dev.pastebin.core.support.InMemoryBreakerStore;
import dev.pastebin.core.support.TestDelivery;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.upload.hold.HeldBacklog;
import dev.pastebin.upload.hold.HeldJobRelease;
import dev.pastebin.upload.hold.MessageVisibility;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.serde.ObjectMapper;
import java.net.ConnectException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One upload batch, fast: the worker's real classes (codec, uploader, breaker, outcomes, classifier, content store,
 * visibility) over an in-memory repository, S3 and SQS, fed with the sample events that {@code sam local invoke}
 * uses (infra/events): what the batch, the uploader and the breaker do together. What is decided for each way a
 * delivery ends is DeliveryDecisionsTest's table, and how each decision is carried out and reported
 * DeliveryEffectsTest's. What S3, SQS and PostgreSQL really do is covered by the *IT tests against LocalStack and
 * PostgreSQL. Every test's metrics are checked against the EMF specification.
 */
class UploadBatchServiceTest {

    /** The paste infra/events/upload-job.json carries. */
    private static final String SHORT_CODE = "aB3xYz9Q";

    private static final String SHA256 = "eac945a947814f6ab70c3c0a122e1757f40350b15f46a94b79709d236b7a3d1e";
    private static final String RECEIPT = "AQEB-sample-receipt-handle-4d5c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a";
    private static final String DEAD_LETTER_QUEUE = "http://127.0.0.1:4566/000000000000/q-dlq";
    private static final String POISON_RECEIPT = "AQEB-sample-receipt-handle-9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4";
    private static final BreakerProperties BREAKER = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofMinutes(2),
            Duration.ofSeconds(30));

    private final ObjectMapper json = ObjectMapper.getDefault();
    private final InMemoryPasteRepository repository = new InMemoryPasteRepository();
    private final InMemoryBreakerStore breakerStore = new InMemoryBreakerStore();
    private final InMemoryHeldDeliveries heldDeliveries = new InMemoryHeldDeliveries(breakerStore, repository);
    private final FakeS3 s3 = new FakeS3();
    private final RecordingSqs sqs = new RecordingSqs();
    private final DeliveryLines lines = new DeliveryLines(json);
    private final CapturedMetrics emitted = new CapturedMetrics();
    private final Metrics metrics = emitted.metrics("upload");
    private final EmfSpec emf =
            new EmfSpec(Arrays.stream(Outcome.values()).map(Outcome::label).collect(Collectors.toSet()));
    private final CurrentInvocation invocation =
            TestLambdaContext.withRemaining(Duration.ofMinutes(3)).asCurrentInvocation();
    /** The uploader's and the outcomes' clock: moved forward to stand for hours of an outage. */
    private Clock clock = Clock.systemUTC();

    @AfterEach
    void detach() {
        lines.close();
    }

    @AfterEach
    void everyMetricLineIsValidEmfWithoutPerPasteDimensions() {
        // The message ids are UUIDs, which EmfSpec refuses anyway.
        emf.validate(emitted.lines(), Set.of(SHORT_CODE));
    }

    /** The values of {@code metric} written by the batch, on lines with these dimensions. */
    private List<Double> metric(Metric metric, String... dimensions) {
        Map<String, String> wanted = new HashMap<>();
        for (int i = 0; i < dimensions.length; i += 2) {
            wanted.put(dimensions[i], dimensions[i + 1]);
        }
        return EmfSpec.values(emf.validate(emitted.lines(), Set.of(SHORT_CODE)), metric, wanted);
    }

    private UploadBatchService worker() {
        // No jitter: the delays are the schedule's own (1, 2, 4, 8, 16 s; throttling 4 s base), and a held job comes
        // back exactly at the next probe (or after the schedule's least hold).
        var delivery = TestDelivery.defaults()
                .jitter(JitterStrategy.NONE)
                .holdJitter(Duration.ZERO)
                .build();
        var decisions = new DeliveryDecisions(
                new DeliverySchedule(delivery), new ReceiveBudget(delivery, new DeliveryQueueProperties(75), true));
        var visibility =
                new MessageVisibility(sqs, new UploadQueueProperties("http://127.0.0.1:4566/000000000000/q", 393_216));
        var store = new PasteContentStore(s3, new StorageProperties("pastes-bucket", "pastes/"));
        var breaker = new S3CircuitBreaker(breakerStore, BREAKER, new FailureClassifier(), metrics);
        var effects = new DeliveryEffects(
                repository,
                heldDeliveries,
                visibility,
                new DeadLetterHandOff(sqs, new DeadLetterQueueProperties(DEAD_LETTER_QUEUE)),
                new DeliveryLog(),
                metrics,
                BREAKER,
                clock);
        var outcomes =
                new DeliveryOutcomes(new FailureClassifier(), breaker, decisions, effects, new HeldBacklog(), clock);
        var upload = new UploadPasteService(
                new UploadJobCodec(json),
                new PasteUploader(
                        repository,
                        new InMemoryDeliveryStarts(
                                repository,
                                breakerStore,
                                heldDeliveries,
                                BREAKER,
                                delivery,
                                new SqsProperties(Duration.ofSeconds(5))),
                        store,
                        breaker,
                        new FailureClassifier(),
                        new BlockedContentRefusal(new EmptyBlocklist(), repository, null, null, null, metrics),
                        clock),
                new S3Notifications(json),
                null, // no S3 notification in these batches: no staged file to verify
                outcomes);
        var properties =
                new UploadProperties(4, Duration.ofSeconds(15), 1, Duration.ofSeconds(5), Duration.ofSeconds(10));
        var deadlines = new InvocationDeadlines(invocation);
        var release = new HeldJobRelease(
                heldDeliveries,
                heldDeliveries,
                visibility,
                deadlines,
                properties,
                new DeliverySchedule(delivery),
                breaker,
                BREAKER,
                clock);
        return new UploadBatchService(upload, release, visibility, properties, deadlines, metrics);
    }

    private static SQSEvent event(String name, int receiveCount) {
        SQSEvent event = EventLoader.loadSQSEvent("events/" + name + ".json");
        event.getRecords()
                .forEach(r -> r.getAttributes().put("ApproximateReceiveCount", Integer.toString(receiveCount)));
        return event;
    }

    /** The body of infra/events/upload-job.json's record: the job as create sent it. */
    private static String jobBody() {
        return event("upload-job", 1).getRecords().getFirst().getBody();
    }

    private void pasteInProgress() {
        repository.save(TestPastes.inProgress(SHORT_CODE, null, SHA256, 60));
    }

    private static List<String> reported(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .toList();
    }

    private Paste row() {
        return repository.findById(SHORT_CODE).orElseThrow();
    }

    private DeliveryLines.Line onlyLine() {
        List<DeliveryLines.Line> all = lines.all();
        assertEquals(1, all.size(), "one line per delivery: " + all);
        return all.getFirst();
    }

    private static S3Exception s3Error(int status, String code) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(code)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(code)
                        .build())
                .build();
    }

    @Test
    void aStoredPasteIsProcessedAndItsMessageAcknowledged() {
        pasteInProgress();

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response));
        assertEquals(PasteStatus.PROCESSED, row().status());
        assertEquals("s3://pastes-bucket/pastes/" + SHORT_CODE, row().s3Location());
        assertArrayEquals(
                "Hello from the pastebin!\nGrüße, 日本語 and a tab\there.\n"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                s3.objects.get("pastes-bucket/pastes/" + SHORT_CODE));
        var line = onlyLine();
        assertEquals("success", line.outcome());
        assertEquals(SHORT_CODE, line.shortCode());
        assertEquals(1, line.delivery());
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "success", "ErrorClass", "none"));
        assertEquals(List.of(1.0), metric(Metric.SUCCESS_ATTEMPT));
        assertEquals(List.of(0.0), metric(Metric.RETRIES_PER_SUCCESS));
        assertEquals(1, metric(Metric.TIME_TO_SUCCESS).size());
    }

    /**
     * A lone paste meeting an S3 outage: too few calls for the breaker to judge, so it stays closed. Its fast
     * attempts used up, the paste is not FAILED: it waits on the hold schedule from then on, one real S3 attempt
     * per delivery, until the hold limit leaves it to the dead-letter queue (which keeps it).
     */
    @Test
    void aTransientFailureOfTheLastFastAttemptKeepsThePasteWaitingOnTheSlowScheduleNotFailed() {
        Instant sixthAttempt = Instant.parse("2026-11-24T10:00:00Z");
        clock = Clock.fixed(sixthAttempt, java.time.ZoneOffset.UTC);
        repository.put(new Paste(
                SHORT_CODE,
                null,
                SHA256,
                60,
                null,
                PasteStatus.IN_PROGRESS,
                null,
                5,
                sixthAttempt,
                sixthAttempt,
                null,
                null,
                false,
                null,
                null,
                null,
                null));
        RuntimeException refused = SdkClientException.builder()
                .message("Unable to execute HTTP request")
                .cause(new ConnectException("Connection refused"))
                .build();
        s3.failPuts(refused, refused, refused);

        var response = worker().process(event("upload-job", 6));

        assertEquals(1, reported(response).size(), "reported for redelivery, not acknowledged");
        assertEquals(PasteStatus.IN_PROGRESS, row().status(), String.valueOf(row().failureReason()));
        assertEquals(6, row().uploadAttempts());
        assertEquals(sixthAttempt, row().firstHeldAt(), "its wait counts from now");
        assertEquals(BreakerState.CLOSED, breakerStore.read("s3").state(), "one paste's calls are too few to open it");
        var line = onlyLine();
        assertEquals("slow", line.outcome());
        assertEquals("CONNECTION", line.errorClass());
        assertEquals(15, line.delaySeconds(), "the hold schedule's first wait: hold-at-least");
        assertEquals(15, sqs.visibility.get(RECEIPT));
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "slow", "ErrorClass", "CONNECTION"));

        clock = Clock.fixed(sixthAttempt.plus(Duration.ofHours(1)), java.time.ZoneOffset.UTC);
        var anHourLater = worker().process(event("upload-job", 20));

        assertEquals(1, reported(anHourLater).size());
        assertEquals(2, s3.puts, "one real S3 attempt per slow delivery");
        assertEquals(7, row().uploadAttempts());
        assertEquals(sixthAttempt, row().firstHeldAt(), "written once");
        assertEquals("slow", lines.all().getLast().outcome());
        assertEquals(300, sqs.visibility.get(RECEIPT), "an hour in, every wait lasts max-hold (5 min)");

        clock = Clock.fixed(sixthAttempt.plus(Duration.ofHours(24)).plusSeconds(1), java.time.ZoneOffset.UTC);
        var pastTheLimit = worker().process(event("upload-job", 300));

        assertEquals(List.of(), reported(pastTheLimit), "handed to the dead-letter queue and acknowledged here");
        assertEquals(
                // infra/events/upload-job.json's record carries its client's group, the create's address hash
                List.of(new RecordingSqs.Sent(DEAD_LETTER_QUEUE, jobBody(), "ip-e3f3184a20444189")),
                sqs.sent,
                "the job exactly as create sent it, in its message group");
        assertEquals(PasteStatus.IN_PROGRESS, row().status(), String.valueOf(row().failureReason()));
        var overdue = lines.all().getLast();
        assertEquals("overdue", overdue.outcome());
        assertEquals("CONNECTION", overdue.errorClass());

        // S3 back: the copy the sweeper requeues from the dead-letter queue stores it.
        var requeued = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(requeued));
        assertEquals(PasteStatus.PROCESSED, row().status());
        assertEquals(List.of(), metric(Metric.BACKOFF_DELAY), "no fast-schedule backoff among these waits");
    }

    @Test
    void accessDeniedOpensTheBreakerForEveryoneAndHoldsThePasteInsteadOfFailingIt() {
        pasteInProgress();
        s3.failPuts(s3Error(403, "AccessDenied"));

        var response = worker().process(event("upload-job", 1));

        assertEquals(1, reported(response).size());
        assertEquals(PasteStatus.IN_PROGRESS, row().status());
        BreakerSnapshot breaker = breakerStore.read("s3");
        assertEquals(BreakerState.OPEN, breaker.state());
        assertTrue(breaker.lastCause().contains("AccessDenied"), breaker.lastCause());
        var line = onlyLine();
        assertEquals("held", line.outcome());
        assertEquals("ACCESS_DENIED", line.errorClass());
        int delay = sqs.visibility.get(RECEIPT);
        assertTrue(
                delay >= 10 && delay <= 16,
                "back at the first probe, 10 s after opening, or after hold-at-least: " + delay);
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, "To", "OPEN"));
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "held", "ErrorClass", "ACCESS_DENIED"));
    }

    /** A bucket policy fixed later must not leave the paste with fewer attempts for S3's real transient errors. */
    @Test
    void aMisconfigurationFailureDoesNotSpendAnS3Attempt() {
        repository.put(new Paste(
                SHORT_CODE,
                null,
                SHA256,
                60,
                null,
                PasteStatus.IN_PROGRESS,
                null,
                5,
                Instant.now(),
                Instant.now(),
                null,
                null,
                false,
                null,
                null,
                null,
                null));
        s3.failPuts(s3Error(403, "AccessDenied"));

        var response = worker().process(event("upload-job", 6));

        assertEquals(1, reported(response).size());
        assertEquals(5, row().uploadAttempts(), "still one attempt left");
        assertEquals(PasteStatus.IN_PROGRESS, row().status());
        assertEquals("held", onlyLine().outcome());
    }

    @Test
    void aSuccessfulProbeClosesTheBreakerAndRecordsTheMinutesItWasOpen() {
        pasteInProgress();
        Instant openedAt = Instant.now().minus(Duration.ofMinutes(3));
        breakerStore.update(
                "s3",
                s -> new BreakerSnapshot(
                        BreakerState.OPEN,
                        s.windowStartedAt(),
                        5,
                        5,
                        0,
                        0,
                        openedAt,
                        Instant.now().minusSeconds(1),
                        Duration.ofSeconds(10),
                        "SERVER_ERROR",
                        null));

        worker().process(event("upload-job", 2));

        assertEquals(BreakerState.CLOSED, breakerStore.read("s3").state());
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, "To", "HALF_OPEN"));
        assertEquals(List.of(1.0), metric(Metric.BREAKER_TRANSITIONS, "To", "CLOSED"));
        assertEquals(List.of(1.0, 1.0), metric(Metric.BREAKER_TRANSITIONS), "both in the [Service] total");
        double openMinutes = metric(Metric.BREAKER_OPEN_MINUTES).getFirst();
        assertTrue(openMinutes >= 3 && openMinutes < 4, "open since " + openedAt + ": " + openMinutes);
    }

    @Test
    void whileTheBreakerIsOpenS3IsNotCalledAndNoAttemptIsUsed() {
        pasteInProgress();
        Instant probe = Instant.now().plusSeconds(40);
        breakerStore.update(
                "s3",
                s -> new BreakerSnapshot(
                        BreakerState.OPEN,
                        s.windowStartedAt(),
                        5,
                        5,
                        0,
                        0,
                        Instant.now(),
                        probe,
                        Duration.ofSeconds(40),
                        "SERVER_ERROR",
                        null));

        var response = worker().process(event("upload-job", 4));

        assertEquals(1, reported(response).size());
        assertEquals(0, s3.puts);
        assertEquals(0, row().uploadAttempts());
        int delay = sqs.visibility.get(RECEIPT);
        assertTrue(delay >= 39 && delay <= 41, "back when the probe is due: " + delay);
        var line = onlyLine();
        assertEquals("held", line.outcome());
        assertEquals("CIRCUIT_OPEN", line.errorClass());
        // noted for the release on close: the message it made invisible, until when
        var held = heldDeliveries.of(SHORT_CODE);
        assertEquals(RECEIPT, held.heldReceiptHandle());
        // noted in the delivery's first statement, before the hold was decided: until the longest hold (with release
        // on close, max-backlog-hold, which the held backlog's spread may reach)
        long heldFor = Duration.between(Instant.now(), held.heldUntil()).toSeconds();
        assertTrue(heldFor >= 898 && heldFor <= 900, "held until its hold ends at the latest: " + heldFor + " s");
        assertNotNull(row().firstHeldAt(), "its first hold noted in that statement too");
    }

    @Test
    void contentThatDoesNotMatchTheRowsHashIsNeverStored() {
        repository.save(TestPastes.inProgress(SHORT_CODE, null, "0".repeat(64), 60));

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response));
        assertEquals(0, s3.puts);
        assertTrue(row().failureReason().startsWith("permanent: INTEGRITY: "), row().failureReason());
    }

    @Test
    void aRedeliveryOfAFinishedPasteIsAcknowledgedWithoutTouchingS3() {
        pasteInProgress();
        repository.markProcessed(SHORT_CODE, "s3://pastes-bucket/pastes/" + SHORT_CODE);

        var response = worker().process(event("upload-job", 2));

        assertEquals(List.of(), reported(response));
        assertEquals(0, s3.puts);
        var line = onlyLine();
        assertEquals("duplicate", line.outcome());
        assertEquals("row is already PROCESSED", line.detail());
    }

    @Test
    void anObjectStoredForAPasteThatWentFailedMeanwhileIsRemoved() {
        pasteInProgress();
        repository.beforeMarkProcessed(() -> repository.markFailed(SHORT_CODE, "stuck"));

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response));
        assertEquals(PasteStatus.FAILED, row().status());
        assertTrue(s3.objects.isEmpty(), "the orphan object is removed");
        var line = onlyLine();
        assertEquals("duplicate", line.outcome());
        assertEquals("row went FAILED during the upload; object removed", line.detail());
    }

    @Test
    void anOrphanObjectThatCannotBeRemovedIsRedeliveredUntilItIsRemoved() {
        pasteInProgress();
        repository.beforeMarkProcessed(() -> repository.markFailed(SHORT_CODE, "stuck"));
        s3.deleteFailure = s3Error(503, "SlowDown");

        var response = worker().process(event("upload-job", 1));

        assertEquals(1, reported(response).size(), "not acknowledged while its object is left behind");
        assertEquals(PasteStatus.FAILED, row().status());
        assertEquals(1, s3.objects.size(), "the delete failed");
        var line = lines.all().getFirst();
        assertEquals("transient", line.outcome());
        assertEquals("THROTTLING", line.errorClass());
        assertEquals(4, line.delaySeconds(), "backed off like any transient failure of its delivery");
        assertTrue(
                line.detail().startsWith("row went FAILED during the upload; object could not be removed: "),
                line.detail());

        s3.deleteFailure = null;
        response = worker().process(event("upload-job", 2));

        assertEquals(List.of(), reported(response));
        assertTrue(s3.objects.isEmpty(), "the redelivery removed it: the row is FAILED, nothing will ever read it");
        var redelivery = lines.all().getLast();
        assertEquals("duplicate", redelivery.outcome());
        assertEquals("row is already FAILED; object removed", redelivery.detail());
    }

    /** A permanent failure whose paste another delivery finished meanwhile: the finished row is left alone. */
    @Test
    void aPermanentFailureOfAPasteFinishedMeanwhileLeavesTheFinishedRowAlone() {
        pasteInProgress();
        s3.beforePut = () -> repository.markProcessed(SHORT_CODE, "s3://pastes-bucket/pastes/" + SHORT_CODE);
        s3.failPuts(s3Error(400, "InvalidRequest"));

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response));
        assertEquals(PasteStatus.PROCESSED, row().status(), "markFailed found it terminal and moved nothing");
        assertEquals("s3://pastes-bucket/pastes/" + SHORT_CODE, row().s3Location());
        assertEquals("permanent", onlyLine().outcome());
    }

    @Test
    void aPasteDeletedDuringItsUploadIsNotResurrectedAndItsObjectIsRemoved() {
        pasteInProgress();
        // DELETE /pastes/{code} (or the sweeper removing an expired paste) while the PUT is in flight
        repository.beforeMarkProcessed(() -> repository.remove(SHORT_CODE));

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response));
        assertTrue(repository.findById(SHORT_CODE).isEmpty(), "no row comes back");
        assertTrue(s3.objects.isEmpty(), "the object it wrote is removed");
        var line = onlyLine();
        assertEquals("removed", line.outcome());
        assertEquals("row was deleted during the upload; object removed", line.detail());
    }

    /** The row is inserted before its job is sent: a job without one is for a paste removed since. */
    @Test
    void aJobForARemovedPasteRemovesItsObjectAndIsAcknowledgedAsRemoved() {
        // an earlier delivery's PUT landed after the paste was deleted
        s3.objects.put("pastes-bucket/pastes/" + SHORT_CODE, new byte[] {1});

        var response = worker().process(event("upload-job", 1));

        assertEquals(List.of(), reported(response), "acknowledged: not poison, nothing for the dead-letter queue");
        assertTrue(s3.objects.isEmpty(), "its object is removed");
        var line = onlyLine();
        assertEquals("removed", line.outcome());
        assertNull(line.delaySeconds());
        assertEquals("no paste row: the paste was removed; object removed", line.detail());
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "removed", "ErrorClass", "none"));
    }

    @Test
    void whenFailedCannotBeRecordedTheMessageIsRetriedRatherThanLost() {
        pasteInProgress();
        s3.failPuts(s3Error(400, "InvalidRequest"));
        repository.failMarkFailedWith(new DataAccessException("x", new SQLException("Connection refused", "08001")));

        var response = worker().process(event("upload-job", 1));

        assertEquals(1, reported(response).size());
        assertEquals(PasteStatus.IN_PROGRESS, row().status());
        var line = onlyLine();
        assertEquals("transient", line.outcome());
        assertEquals("DATABASE", line.errorClass());
        assertTrue(line.detail().startsWith("could not mark permanent paste FAILED: "), line.detail());
    }

    @Test
    void inAMixedBatchExactlyThePoisonMessageIsReported() {
        pasteInProgress();

        var response = worker().process(event("upload-batch", 1));

        assertEquals(List.of("9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4"), reported(response));
        assertEquals(PasteStatus.PROCESSED, row().status());
        assertEquals(2, lines.all().size());
        assertEquals(List.of(1.0, 1.0), metric(Metric.UPLOAD_DELIVERIES), "both deliveries in the [Service] total");
        assertEquals(
                3, emitted.lines().size(), "one line per dimension combination: success, poison, the success's values");
    }

    @Test
    void nearTheDeadlineNothingStartsAndEveryRecordIsReleasedAtOnce() {
        pasteInProgress();
        invocation.begin(TestLambdaContext.alreadyNearTheDeadline());

        var response = worker().process(event("upload-batch", 1));

        assertEquals(2, reported(response).size());
        assertEquals(0, s3.puts);
        assertEquals(0, sqs.visibility.get(RECEIPT));
        assertEquals(0, sqs.visibility.get(POISON_RECEIPT));
        assertTrue(lines.all().isEmpty(), "nothing started: no delivery line");
        assertEquals(List.of(), emitted.lines(), "nothing started, no metric");
    }
}
