package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.config.DeadLetterQueueProperties;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.delivery.Delivery;
import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import dev.pastebin.core.support.InMemoryBreakerStore;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.upload.hold.MessageVisibility;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.serde.ObjectMapper;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Each kind of {@link Decision} carried out and reported: the row, the message's visibility, the held delivery
 * noted, the hand-off, and the one delivery line with its metrics (checked against the EMF specification), over an
 * in-memory repository and SQS. The expectations are UploadBatchServiceTest's for the same cases.
 */
class DeliveryEffectsTest {

    private static final String SHORT_CODE = "aB3xYz9Q";
    private static final String RECEIPT = "AQEB-sample-receipt-handle";
    private static final String BODY = "{\"shortCode\":\"aB3xYz9Q\",\"content\":\"…\"}";
    private static final String DEAD_LETTER_QUEUE = "http://127.0.0.1:4566/000000000000/q-dlq";
    /** The client the create sent the job for (its MessageGroupId). */
    private static final String GROUP = "ip-e3f3184a20444189";

    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private static final Failure SERVER_ERROR =
            new Failure(ErrorClass.SERVER_ERROR, 500, false, "S3Exception: InternalError (HTTP 500)");
    private static final Failure CONNECTION = new Failure(
            ErrorClass.CONNECTION, null, false, "SdkClientException: Unable to execute HTTP request: refused");
    private static final BreakerProperties BREAKER = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    private static final Failure CIRCUIT_OPEN = new Failure(ErrorClass.CIRCUIT_OPEN, null, false, "circuit open");

    private final InMemoryPasteRepository repository = new InMemoryPasteRepository();
    /** No breaker's row: the held deliveries' guard finds it never closed. */
    private final InMemoryHeldDeliveries heldDeliveries = new InMemoryHeldDeliveries(null, repository);

    private final RecordingSqs sqs = new RecordingSqs();
    private final DeliveryLines lines = new DeliveryLines(ObjectMapper.getDefault());
    private final CapturedMetrics emitted = new CapturedMetrics();
    private final Metrics metrics = emitted.metrics("upload");
    private final EmfSpec emf =
            new EmfSpec(Arrays.stream(Outcome.values()).map(Outcome::label).collect(Collectors.toSet()));
    private final DeliveryEffects effects = new DeliveryEffects(
            repository,
            heldDeliveries,
            new MessageVisibility(sqs, new UploadQueueProperties("http://127.0.0.1:4566/000000000000/q", 393_216)),
            new DeadLetterHandOff(sqs, new DeadLetterQueueProperties(DEAD_LETTER_QUEUE)),
            new DeliveryLog(),
            metrics,
            BREAKER,
            Clock.fixed(NOW, ZoneOffset.UTC));

    @AfterEach
    void detach() {
        lines.close();
    }

    private static UploadDelivery delivery(int number) {
        return new UploadDelivery(
                new UploadMessage("m-1", RECEIPT, BODY, new Delivery(number), GROUP), SHORT_CODE, System.nanoTime());
    }

    private void pasteInProgress() {
        repository.save(TestPastes.inProgress(SHORT_CODE, null, "0".repeat(64), 60));
    }

    /** As UploadPasteService runs it: in the message's and the paste's log context. */
    private Outcome perform(int delivery, Decision decision) {
        var scope = LogContext.forMessage("m-1");
        try {
            LogContext.forPaste(SHORT_CODE);
            return effects.perform(delivery(delivery), decision);
        } finally {
            scope.close();
            metrics.flush();
        }
    }

    /** The values of {@code metric} written, on lines with these dimensions. */
    private List<Double> metric(Metric metric, String... dimensions) {
        Map<String, String> wanted = new HashMap<>();
        for (int i = 0; i < dimensions.length; i += 2) {
            wanted.put(dimensions[i], dimensions[i + 1]);
        }
        return EmfSpec.values(emf.validate(emitted.lines(), Set.of(SHORT_CODE)), metric, wanted);
    }

    private DeliveryLines.Line onlyLine() {
        List<DeliveryLines.Line> all = lines.all();
        assertEquals(1, all.size(), "one line per delivery: " + all);
        return all.getFirst();
    }

    /** aSuccessAfterRetriesRecordsItsAttemptRetriesAndTimeSinceTheRowWasCreated, aStoredPasteIsProcessed… */
    @Test
    void aSuccessRecordsItsAttemptRetriesAndTimeSinceTheRowWasCreated() {
        Outcome outcome = perform(4, new Decision.Succeeded(new S3Attempt(3), Duration.ofSeconds(7)));

        assertEquals(Outcome.SUCCESS, outcome);
        assertFalse(outcome.redeliver());
        var line = onlyLine();
        assertEquals("success", line.outcome());
        assertEquals(SHORT_CODE, line.shortCode());
        assertEquals(4, line.delivery());
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "success", "ErrorClass", "none"));
        assertEquals(List.of(3.0), metric(Metric.SUCCESS_ATTEMPT), "two S3 attempts failed before");
        assertEquals(List.of(2.0), metric(Metric.RETRIES_PER_SUCCESS));
        assertEquals(List.of(7_000.0), metric(Metric.TIME_TO_SUCCESS), "from the row's creation");
    }

    /** aTransientFailureWithAttemptsLeftComesBackAfterTheBackoffDelay, aDeliveryThatIsNotHeldNotesNoHeldMessage */
    @Test
    void aBackoffSetsTheVisibilityAndReportsTheDelay() {
        pasteInProgress();

        Outcome outcome = perform(3, new Decision.Backoff(Outcome.TRANSIENT, SERVER_ERROR, 4, SERVER_ERROR.message()));

        assertTrue(outcome.redeliver(), "reported for redelivery");
        assertEquals(4, sqs.visibility.get(RECEIPT), "after the 3rd attempt: 1 s x 2^2");
        assertEquals(
                PasteStatus.IN_PROGRESS,
                repository.findById(SHORT_CODE).orElseThrow().status());
        var line = onlyLine();
        assertEquals("transient", line.outcome());
        assertEquals("SERVER_ERROR", line.errorClass());
        assertEquals(500, line.s3Status());
        assertEquals(4, line.delaySeconds());
        assertEquals(
                List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "transient", "ErrorClass", "SERVER_ERROR"));
        assertEquals(List.of(4.0), metric(Metric.BACKOFF_DELAY));
        assertEquals(List.of(), metric(Metric.SUCCESS_ATTEMPT));
        assertNull(heldDeliveries.of(SHORT_CODE), "not held: no held message noted");
    }

    /** aFailedVisibilityChangeStillReportsTheMessage */
    @Test
    void aFailedVisibilityChangeStillReportsTheMessage() {
        sqs.failure = SdkClientException.create("SQS unreachable");

        Outcome outcome = perform(1, new Decision.Backoff(Outcome.TRANSIENT, SERVER_ERROR, 1, SERVER_ERROR.message()));

        assertTrue(outcome.redeliver());
        var line = onlyLine();
        assertNull(line.delaySeconds());
        assertTrue(line.detail().endsWith("(visibility change failed: back after the queue's visibility timeout)"));
        assertEquals(List.of(), metric(Metric.BACKOFF_DELAY), "no delay was set");
    }

    /** aMessageThatIsNotAnUploadJobIsReportedUntilRedriveMovesItToTheDeadLetterQueue */
    @Test
    void aPoisonMessageIsBackedOffButItsDelayIsNoBackoffMetric() {
        var poison = new UploadDelivery(
                new UploadMessage("m-2", RECEIPT, "not json", new Delivery(1), null), null, System.nanoTime());

        Outcome outcome = effects.perform(poison, new Decision.Backoff(Outcome.POISON, null, 1, "not an upload job"));
        metrics.flush();

        assertTrue(outcome.redeliver());
        var line = onlyLine();
        assertEquals("poison", line.outcome());
        assertNull(line.shortCode());
        assertEquals(
                1, line.delaySeconds(), "its redeliveries follow the schedule, not the queue's visibility timeout");
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "poison", "ErrorClass", "none"));
        assertEquals(List.of(), metric(Metric.BACKOFF_DELAY), "only a transient failure's delay is a backoff");
    }

    /** withTheGiveUpSettingTheSixthTransientS3FailureFailsThePaste */
    @Test
    void givingUpMarksThePasteFailedWithItsReasonAndAcknowledges() {
        pasteInProgress();

        Outcome outcome = perform(6, new Decision.MarkFailed(Outcome.GAVE_UP, SERVER_ERROR, "after S3 attempt 6"));

        assertFalse(outcome.redeliver(), "acknowledged: nothing more to do");
        var row = repository.findById(SHORT_CODE).orElseThrow();
        assertEquals(PasteStatus.FAILED, row.status());
        assertTrue(row.failureReason().startsWith("gave_up: SERVER_ERROR: after S3 attempt 6: "), row.failureReason());
        var line = onlyLine();
        assertEquals("gave_up", line.outcome());
        assertEquals("SERVER_ERROR", line.errorClass());
        assertNull(line.delaySeconds());
        assertEquals(
                List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "gave_up", "ErrorClass", "SERVER_ERROR"));
    }

    /** aPermanentFailureFailsThePasteAtOnce */
    @Test
    void aPermanentFailureMarksThePasteFailed() {
        pasteInProgress();
        var invalid = new Failure(ErrorClass.INVALID_REQUEST, 400, false, "S3Exception: InvalidRequest (HTTP 400)");

        Outcome outcome = perform(1, new Decision.MarkFailed(Outcome.PERMANENT, invalid, null));

        assertFalse(outcome.redeliver());
        var row = repository.findById(SHORT_CODE).orElseThrow();
        assertEquals(PasteStatus.FAILED, row.status());
        assertTrue(row.failureReason().startsWith("permanent: INVALID_REQUEST: "), row.failureReason());
        var line = onlyLine();
        assertEquals("permanent", line.outcome());
        assertEquals(400, line.s3Status());
    }

    /** whenFailedCannotBeRecordedTheMessageIsRetriedRatherThanLost: nothing reported here, DeliveryOutcomes decides again. */
    @Test
    void whenFailedCannotBeRecordedNothingIsReportedAndTheDeliveryIsDecidedAgain() {
        pasteInProgress();
        repository.failMarkFailedWith(new DataAccessException("x", new SQLException("Connection refused", "08001")));

        assertThrows(
                DeliveryEffects.FailedNotRecorded.class,
                () -> effects.perform(delivery(1), new Decision.MarkFailed(Outcome.PERMANENT, SERVER_ERROR, null)));

        assertEquals(
                PasteStatus.IN_PROGRESS,
                repository.findById(SHORT_CODE).orElseThrow().status());
        assertEquals(List.of(), lines.all());
    }

    /** aTransientFailureOfTheLastFastAttemptKeepsThePasteWaitingOnTheSlowScheduleNotFailed, its first wait */
    @Test
    void aSlowWaitNotesThePastesFirstHoldAndItsHeldMessage() {
        pasteInProgress();

        Outcome outcome = perform(6, new Decision.Hold(Outcome.SLOW, CONNECTION, 15, "S3 attempt 6, …", NOW, false));

        assertTrue(outcome.redeliver(), "reported for redelivery, not acknowledged");
        var row = repository.findById(SHORT_CODE).orElseThrow();
        assertEquals(PasteStatus.IN_PROGRESS, row.status());
        assertEquals(NOW, row.firstHeldAt(), "its wait counts from now");
        assertEquals(15, sqs.visibility.get(RECEIPT));
        var line = onlyLine();
        assertEquals("slow", line.outcome());
        assertEquals("CONNECTION", line.errorClass());
        assertEquals(15, line.delaySeconds(), "the hold schedule's first wait: hold-at-least");
        assertEquals(List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "slow", "ErrorClass", "CONNECTION"));
        assertEquals(List.of(), metric(Metric.BACKOFF_DELAY), "no fast-schedule backoff among these waits");
        assertEquals(new HeldDelivery(SHORT_CODE, RECEIPT, NOW.plusSeconds(15)), heldDeliveries.of(SHORT_CODE));
    }

    /** whileTheBreakerIsOpenS3IsNotCalledAndNoAttemptIsUsed: the hold, and the note for the release on close */
    @Test
    void aHoldIsNotedForTheReleaseOnClose() {
        pasteInProgress();
        Instant firstHold = NOW.minusSeconds(30);
        repository.recordFirstHold(SHORT_CODE, firstHold);

        Outcome outcome =
                perform(4, new Decision.Hold(Outcome.HELD, CIRCUIT_OPEN, 40, "circuit open until …", null, false));

        assertTrue(outcome.redeliver());
        assertEquals(40, sqs.visibility.get(RECEIPT), "back when the probe is due");
        var line = onlyLine();
        assertEquals("held", line.outcome());
        assertEquals("CIRCUIT_OPEN", line.errorClass());
        // noted for the release on close: the message it made invisible, until when
        var held = heldDeliveries.of(SHORT_CODE);
        assertEquals(RECEIPT, held.heldReceiptHandle());
        assertEquals(NOW.plusSeconds(40), held.heldUntil(), "held until its hold ends");
        assertEquals(firstHold, repository.findById(SHORT_CODE).orElseThrow().firstHeldAt(), "written once");
    }

    /**
     * The breaker closed between this delivery's read of it and its note: the release may be past the row already,
     * so the note is refused and the job made visible again at once rather than waiting out its hold.
     */
    @Test
    void aHoldOfABreakerThatClosedMeanwhileIsMadeVisibleAgainAtOnce() {
        pasteInProgress();
        var closed = new InMemoryBreakerStore(); // its breaker starts closed
        var effectsAfterTheClose = new DeliveryEffects(
                repository,
                new InMemoryHeldDeliveries(closed, repository),
                new MessageVisibility(sqs, new UploadQueueProperties("http://127.0.0.1:4566/000000000000/q", 393_216)),
                new DeadLetterHandOff(sqs, new DeadLetterQueueProperties(DEAD_LETTER_QUEUE)),
                new DeliveryLog(),
                metrics,
                BREAKER,
                Clock.fixed(NOW, ZoneOffset.UTC));

        Outcome outcome = effectsAfterTheClose.perform(
                delivery(2), new Decision.Hold(Outcome.HELD, CIRCUIT_OPEN, 40, "circuit open until …", null, false));
        metrics.flush();

        assertTrue(outcome.redeliver());
        assertEquals(0, sqs.visibility.get(RECEIPT), "visible again at once");
        var line = onlyLine();
        assertEquals("held", line.outcome());
        assertEquals(0, line.delaySeconds());
        assertTrue(line.detail().endsWith("the breaker closed meanwhile: back at once"), line.detail());
    }

    /** A first hold is noted with its held message, in one statement, once the message is invisible. */
    @Test
    void aFirstHoldIsNotedWithItsHeldMessage() {
        pasteInProgress();

        perform(1, new Decision.Hold(Outcome.HELD, CIRCUIT_OPEN, 15, "circuit open until …", NOW, false));

        assertEquals(NOW, repository.findById(SHORT_CODE).orElseThrow().firstHeldAt());
        assertEquals(new HeldDelivery(SHORT_CODE, RECEIPT, NOW.plusSeconds(15)), heldDeliveries.of(SHORT_CODE));
    }

    /** The message could not be made invisible: nothing to release, but the wait still counts from now. */
    @Test
    void aHoldWhoseVisibilityChangeFailedNotesOnlyTheFirstHold() {
        pasteInProgress();
        sqs.failure = SdkClientException.create("SQS unreachable");

        perform(1, new Decision.Hold(Outcome.HELD, CIRCUIT_OPEN, 15, "circuit open until …", NOW, false));

        assertEquals(NOW, repository.findById(SHORT_CODE).orElseThrow().firstHeldAt());
        assertNull(heldDeliveries.of(SHORT_CODE), "no message made invisible: none to release");
        assertNull(onlyLine().delaySeconds());
    }

    /** The delivery's first statement held it (DeliveryStarts): only the visibility is left to change. */
    @Test
    void aHoldNotedByTheDeliverysFirstStatementOnlyChangesTheVisibility() {
        pasteInProgress();

        Outcome outcome =
                perform(3, new Decision.Hold(Outcome.HELD, CIRCUIT_OPEN, 40, "circuit open until …", null, true));

        assertTrue(outcome.redeliver());
        assertEquals(40, sqs.visibility.get(RECEIPT));
        assertNull(heldDeliveries.of(SHORT_CODE), "noted by that statement, not here");
        assertEquals(40, onlyLine().delaySeconds());
    }

    /** aPasteHeldFor23HoursIsStillHeldAndPastTheHoldLimitItIsLeftToTheDeadLetterQueueNotFailed, past the limit */
    @Test
    void anOverdueJobIsHandedToTheDeadLetterQueueAsCreateSentItAndAcknowledged() {
        pasteInProgress();

        Outcome outcome = perform(
                300,
                new Decision.HandToDeadLetterQueue(
                        Outcome.HELD, CIRCUIT_OPEN, "waiting since …, longer than PT24H", "circuit open until …"));

        assertFalse(outcome.redeliver(), "one receive past the limit moves it, whatever its receive count");
        assertEquals(
                List.of(new RecordingSqs.Sent(DEAD_LETTER_QUEUE, BODY, GROUP)),
                sqs.sent,
                "the job exactly as it came, in its client's message group");
        assertEquals(
                PasteStatus.IN_PROGRESS,
                repository.findById(SHORT_CODE).orElseThrow().status());
        var line = onlyLine();
        assertEquals("overdue", line.outcome());
        assertEquals("CIRCUIT_OPEN", line.errorClass());
        assertEquals("waiting since …, longer than PT24H: handed to the dead-letter queue", line.detail());
        assertEquals(
                List.of(1.0), metric(Metric.UPLOAD_DELIVERIES, "Outcome", "overdue", "ErrorClass", "CIRCUIT_OPEN"));
    }

    /**
     * anOverdueJobThatCannotBeHandedToTheDeadLetterQueueIsReportedAndComesBackAfterTheVisibilityTimeout: it stays,
     * reported, and comes back after the queue's visibility timeout (360 s, longer than max-hold), not after
     * hold-at-least (which spun a requeued job through its receives). No second SQS call: SQS is likely down for it
     * too, and the record's time budget has room for one.
     */
    @Test
    void anOverdueJobThatCannotBeHandedOverIsReportedAndComesBackAfterTheVisibilityTimeout() {
        pasteInProgress();
        sqs.sendFailure = SdkClientException.create("Unable to execute HTTP request: Connection refused");

        Outcome outcome = perform(
                2,
                new Decision.HandToDeadLetterQueue(
                        Outcome.HELD, CIRCUIT_OPEN, "waiting since …, longer than PT24H", "circuit open until …"));

        assertTrue(outcome.redeliver(), "kept in the upload queue: never acknowledged unless handed over");
        assertEquals(List.of(), sqs.sent);
        assertEquals(Map.of(), sqs.visibility, "no visibility change: the queue's visibility timeout brings it back");
        var line = onlyLine();
        assertEquals("held", line.outcome());
        assertNull(line.delaySeconds());
        assertTrue(line.detail().contains("dead-letter queue"), line.detail());
    }
}
