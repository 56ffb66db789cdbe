package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.delivery.Delivery;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.DeliveryQueueProperties;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.JitterStrategy;
import dev.pastebin.core.delivery.ReceiveBudget;
import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.support.TestDelivery;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decision table: for each way a delivery can end (its {@link Ending}, its {@link Delivery} and S3 attempt,
 * what the breaker said), what {@link DeliveryDecisions} decides, with no fake of anything. The settings are the
 * defaults without jitter (delays 1, 2, 4, 8, 16 s, throttling from 4 s; holds exactly as the schedule computes
 * them) and a queue of 75 receives; {@code GIVE_UP_AFTER_6} adds the original specification's rule. Each row names
 * the UploadBatchServiceTest case it was, where it was one; DeliveryEffectsTest carries the decisions out.
 */
class DeliveryDecisionsTest {

    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
    private static final Duration HOLD_LIMIT = Duration.ofHours(24);

    private static final Failure SERVER_ERROR =
            new Failure(ErrorClass.SERVER_ERROR, 500, false, "S3Exception: InternalError (HTTP 500)");
    private static final Failure THROTTLING =
            new Failure(ErrorClass.THROTTLING, 503, false, "S3Exception: SlowDown (HTTP 503)");
    private static final Failure CONNECTION = new Failure(
            ErrorClass.CONNECTION, null, false, "SdkClientException: Unable to execute HTTP request: refused");
    private static final Failure INVALID_REQUEST =
            new Failure(ErrorClass.INVALID_REQUEST, 400, false, "S3Exception: InvalidRequest (HTTP 400)");
    private static final Failure INTEGRITY =
            new Failure(ErrorClass.INTEGRITY, null, false, "content hashes to eac9… but the paste row has 0000…");
    private static final Failure DATABASE =
            new Failure(ErrorClass.DATABASE, null, false, "DataAccessException: Connection refused (08001)");
    private static final Failure CIRCUIT_OPEN = new Failure(ErrorClass.CIRCUIT_OPEN, null, false, "circuit open");
    private static final Failure ACCESS_DENIED =
            new Failure(ErrorClass.ACCESS_DENIED, 403, false, "S3Exception: AccessDenied (HTTP 403)");

    private static final String LAST_DELIVERY =
            "; last delivery: left to the dead-letter queue, which keeps it for the sweeper";

    enum Settings {
        DEFAULTS(0),
        GIVE_UP_AFTER_6(6);

        private final int giveUpAfterAttempts;

        Settings(int giveUpAfterAttempts) {
            this.giveUpAfterAttempts = giveUpAfterAttempts;
        }

        DeliveryDecisions decisions() {
            DeliveryProperties delivery = TestDelivery.defaults()
                    .jitter(JitterStrategy.NONE)
                    .holdJitter(Duration.ZERO)
                    .giveUpAfterAttempts(giveUpAfterAttempts)
                    .build();
            return new DeliveryDecisions(
                    new DeliverySchedule(delivery, new SplittableRandom(1)),
                    new ReceiveBudget(delivery, new DeliveryQueueProperties(75), true));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(String row, Settings settings, Delivery delivery, Ending ending, Decision expected) {
        assertEquals(expected, settings.decisions().decide(delivery, ending, NOW), row);
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                // acknowledged as they are
                row(
                        "stored on its 3rd S3 attempt: success, measured (aSuccessAfterRetriesRecordsItsAttempt…)",
                        4,
                        new Ending.Stored(new S3Attempt(3), Duration.ofSeconds(7)),
                        new Decision.Succeeded(new S3Attempt(3), Duration.ofSeconds(7))),
                row(
                        "already PROCESSED: duplicate (aRedeliveryOfAFinishedPasteIsAcknowledged…)",
                        2,
                        new Ending.Duplicate("row is already PROCESSED"),
                        new Decision.Acknowledge(Outcome.DUPLICATE, "row is already PROCESSED")),
                row(
                        "no row: removed (aJobForARemovedPasteRemovesItsObject…)",
                        1,
                        new Ending.Removed("no paste row: the paste was removed; object removed"),
                        new Decision.Acknowledge(
                                Outcome.REMOVED, "no paste row: the paste was removed; object removed")),
                // the fast schedule: backed off by the S3 attempt
                row(
                        "3rd S3 attempt fails (5xx): back after 1 s x 2^2 (aTransientFailureWithAttemptsLeft…)",
                        3,
                        new Ending.S3AttemptFailed(SERVER_ERROR, new S3Attempt(3), null),
                        new Decision.Backoff(Outcome.TRANSIENT, SERVER_ERROR, 4, SERVER_ERROR.message())),
                row(
                        "1st S3 attempt throttled: the 4 s base (throttlingWaitsLongerThanAPlainServerError)",
                        1,
                        new Ending.S3AttemptFailed(THROTTLING, new S3Attempt(1), null),
                        new Decision.Backoff(Outcome.TRANSIENT, THROTTLING, 4, THROTTLING.message())),
                row(
                        "9th delivery, 3rd S3 attempt: backed off as the attempt, 4 s not 256 s "
                                + "(theBudgetCountsRealS3AttemptsNotDeliveries)",
                        9,
                        new Ending.S3AttemptFailed(SERVER_ERROR, new S3Attempt(3), null),
                        new Decision.Backoff(Outcome.TRANSIENT, SERVER_ERROR, 4, SERVER_ERROR.message())),
                row(
                        "the queue's last delivery: reported for the redrive, not FAILED "
                                + "(onTheQueuesLastDeliveryATransientFailureIsLeftToTheDeadLetterQueue…)",
                        75,
                        new Ending.S3AttemptFailed(SERVER_ERROR, new S3Attempt(1), null),
                        new Decision.Backoff(
                                Outcome.TRANSIENT, SERVER_ERROR, 1, SERVER_ERROR.message() + LAST_DELIVERY)),
                // failed for good
                row(
                        "permanent S3 failure: FAILED at once (aPermanentFailureFailsThePasteAtOnce)",
                        1,
                        new Ending.S3AttemptFailed(INVALID_REQUEST, new S3Attempt(1), null),
                        new Decision.MarkFailed(Outcome.PERMANENT, INVALID_REQUEST, null)),
                row(
                        "content that does not match its hash: FAILED (contentThatDoesNotMatchTheRowsHash…)",
                        1,
                        new Ending.Failed(INTEGRITY),
                        new Decision.MarkFailed(Outcome.PERMANENT, INTEGRITY, null)),
                row(
                        "give-up 6: the 5th attempt still backs off, 1 s x 2^4 "
                                + "(withTheGiveUpSettingTheSixthTransientS3FailureFailsThePaste)",
                        Settings.GIVE_UP_AFTER_6,
                        5,
                        new Ending.S3AttemptFailed(SERVER_ERROR, new S3Attempt(5), null),
                        new Decision.Backoff(Outcome.TRANSIENT, SERVER_ERROR, 16, SERVER_ERROR.message())),
                row(
                        "give-up 6: the 6th attempt gives up "
                                + "(withTheGiveUpSettingTheSixthTransientS3FailureFailsThePaste)",
                        Settings.GIVE_UP_AFTER_6,
                        6,
                        new Ending.S3AttemptFailed(SERVER_ERROR, new S3Attempt(6), null),
                        new Decision.MarkFailed(Outcome.GAVE_UP, SERVER_ERROR, "after S3 attempt 6")),
                row(
                        "give-up 6: held by the open breaker, no attempt, held not FAILED "
                                + "(withTheGiveUpSettingAPasteHeldByTheOpenBreakerIsHeldNotFailed)",
                        Settings.GIVE_UP_AFTER_6,
                        30,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(20)),
                        hold(CIRCUIT_OPEN, 20, NOW, Duration.ofSeconds(20))),
                // failed before S3: backed off by the delivery
                row(
                        "the database fails before S3: backed off by the delivery, 3rd: 4 s",
                        3,
                        new Ending.Failed(DATABASE),
                        new Decision.Backoff(Outcome.TRANSIENT, DATABASE, 4, DATABASE.message())),
                row(
                        "FAILED could not be recorded: retried, not lost "
                                + "(whenFailedCannotBeRecordedTheMessageIsRetriedRatherThanLost)",
                        1,
                        new Ending.NotMarkedFailed(Outcome.PERMANENT, DATABASE),
                        new Decision.Backoff(
                                Outcome.TRANSIENT,
                                DATABASE,
                                1,
                                "could not mark permanent paste FAILED: " + DATABASE.message())),
                row(
                        "an orphan object not removed (throttled): 4 s "
                                + "(anOrphanObjectThatCannotBeRemovedIsRedeliveredUntilItIsRemoved)",
                        1,
                        new Ending.RemovalFailed(
                                "row went FAILED during the upload; object could not be removed", THROTTLING),
                        new Decision.Backoff(
                                Outcome.TRANSIENT,
                                THROTTLING,
                                4,
                                "row went FAILED during the upload; object could not be removed: "
                                        + THROTTLING.message())),
                row(
                        "a removed paste's object not removed, 3rd delivery: 4 s "
                                + "(aJobForARemovedPasteWhoseObjectCannotBeRemovedIsRedeliveredWithBackoff)",
                        3,
                        new Ending.RemovalFailed(
                                "no paste row: the paste was removed; object could not be removed", SERVER_ERROR),
                        new Decision.Backoff(
                                Outcome.TRANSIENT,
                                SERVER_ERROR,
                                4,
                                "no paste row: the paste was removed; object could not be removed: "
                                        + SERVER_ERROR.message())),
                row(
                        "not an upload job: backed off as UNKNOWN by its delivery, for the redrive "
                                + "(aMessageThatIsNotAnUploadJobIsReported…)",
                        1,
                        new Ending.Poison("not an upload job: no shortCode"),
                        new Decision.Backoff(Outcome.POISON, null, 1, "not an upload job: no shortCode")),
                // slow: the fast attempts used up
                row(
                        "6th attempt fails, never waited: slow for hold-at-least, its first hold noted now "
                                + "(aTransientFailureOfTheLastFastAttemptKeepsThePasteWaiting…)",
                        6,
                        new Ending.S3AttemptFailed(CONNECTION, new S3Attempt(6), null),
                        new Decision.Hold(Outcome.SLOW, CONNECTION, 15, slowDetail(6, NOW), NOW, false)),
                row(
                        "slow an hour after its first wait: max-hold (…KeepsThePasteWaitingOnTheSlowSchedule…)",
                        20,
                        new Ending.S3AttemptFailed(CONNECTION, new S3Attempt(7), NOW.minus(Duration.ofHours(1))),
                        new Decision.Hold(
                                Outcome.SLOW,
                                CONNECTION,
                                300,
                                slowDetail(7, NOW.minus(Duration.ofHours(1))),
                                null,
                                false)),
                row(
                        "slow past the hold limit, past the queue's receives too: handed to the dead-letter "
                                + "queue at once (…NotFailed)",
                        300,
                        new Ending.S3AttemptFailed(CONNECTION, new S3Attempt(8), NOW.minus(pastTheLimit())),
                        new Decision.HandToDeadLetterQueue(
                                Outcome.SLOW,
                                CONNECTION,
                                overdue(NOW.minus(pastTheLimit())),
                                slowDetail(8, NOW.minus(pastTheLimit())) + LAST_DELIVERY)),
                // held by the breaker: no S3 attempt
                row(
                        "held, the probe in 40 s: back at the probe (whileTheBreakerIsOpenS3IsNotCalled…)",
                        4,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(40)),
                        hold(CIRCUIT_OPEN, 40, NOW, Duration.ofSeconds(40))),
                row(
                        "S3 said AccessDenied, first probe in 10 s: hold-at-least, not FAILED "
                                + "(accessDeniedOpensTheBreakerForEveryoneAndHoldsThePaste…)",
                        1,
                        held(ACCESS_DENIED, NOW, Duration.ofSeconds(10)),
                        hold(ACCESS_DENIED, 15, NOW, Duration.ofSeconds(10))),
                row(
                        "a probe in flight: the shortest hold, half of 2 min waited, not the probe timeout",
                        5,
                        held(CIRCUIT_OPEN, NOW.minus(Duration.ofMinutes(2)), Duration.ZERO),
                        hold(CIRCUIT_OPEN, 60, NOW.minus(Duration.ofMinutes(2)), Duration.ZERO)),
                row(
                        "5,000 held fleet-wide, the probe in 4 s: back in 50 s, the backlog at 100 held deliveries a "
                                + "second (whileManyAreHeldAHoldLastsAtLeastTheBacklogAtTheHeldDeliveryRate)",
                        3,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(4), 5_000),
                        hold(CIRCUIT_OPEN, 50, NOW, Duration.ofSeconds(4))),
                row(
                        "50,000 held fleet-wide: 500 s, past max-hold",
                        3,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(4), 50_000),
                        hold(CIRCUIT_OPEN, 500, NOW, Duration.ofSeconds(4))),
                row(
                        "a million held fleet-wide: max-backlog-hold",
                        3,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(4), 1_000_000),
                        hold(CIRCUIT_OPEN, 900, NOW, Duration.ofSeconds(4))),
                row(
                        "a paste created 16 min ago, first held now: held, its wait counts from the hold "
                                + "(aPasteCreatedSixteenMinutesAgoThatMeetsAnOpenBreakerIsHeldNotFailed)",
                        30,
                        held(CIRCUIT_OPEN, NOW, Duration.ofSeconds(60)),
                        hold(CIRCUIT_OPEN, 60, NOW, Duration.ofSeconds(60))),
                row(
                        "held for 23 h: still held, max-hold (aPasteHeldFor23HoursIsStillHeld…)",
                        250,
                        held(CIRCUIT_OPEN, NOW.minus(Duration.ofHours(23)), Duration.ofSeconds(60)),
                        hold(CIRCUIT_OPEN, 300, NOW.minus(Duration.ofHours(23)), Duration.ofSeconds(60))),
                row(
                        "held past 24 h: handed to the dead-letter queue, whatever its receive count "
                                + "(…PastTheHoldLimitItIsLeftToTheDeadLetterQueueNotFailed)",
                        300,
                        held(CIRCUIT_OPEN, NOW.minus(pastTheLimit()), Duration.ofSeconds(60)),
                        handedOver(CIRCUIT_OPEN, NOW.minus(pastTheLimit()), Duration.ofSeconds(60))),
                row(
                        "first held 3 days ago (a requeued dead letter), 2nd delivery: handed over at once "
                                + "(anOverdueJobThatCannotBeHandedToTheDeadLetterQueue…)",
                        2,
                        held(CIRCUIT_OPEN, NOW.minus(Duration.ofDays(3)), Duration.ofSeconds(60)),
                        handedOver(CIRCUIT_OPEN, NOW.minus(Duration.ofDays(3)), Duration.ofSeconds(60))));
    }

    private static Arguments row(String name, int delivery, Ending ending, Decision expected) {
        return row(name, Settings.DEFAULTS, delivery, ending, expected);
    }

    private static Arguments row(String name, Settings settings, int delivery, Ending ending, Decision expected) {
        return Arguments.of(name, settings, new Delivery(delivery), ending, expected);
    }

    private static Duration pastTheLimit() {
        return HOLD_LIMIT.plusSeconds(1);
    }

    /** A hold whose first hold is noted already and whose message is still to note. */
    private static Ending.Held held(Failure failure, Instant heldSince, Duration untilProbe) {
        return held(failure, heldSince, untilProbe, 0);
    }

    private static Ending.Held held(Failure failure, Instant heldSince, Duration untilProbe, long heldBacklog) {
        return new Ending.Held(failure, heldSince, untilProbe, null, false, heldBacklog);
    }

    private static String heldDetail(Instant heldSince, Duration untilProbe) {
        return "circuit open until " + NOW.plus(untilProbe) + "; held since " + heldSince;
    }

    private static Decision.Hold hold(Failure failure, int seconds, Instant heldSince, Duration untilProbe) {
        return new Decision.Hold(Outcome.HELD, failure, seconds, heldDetail(heldSince, untilProbe), null, false);
    }

    private static Decision.HandToDeadLetterQueue handedOver(Failure failure, Instant heldSince, Duration untilProbe) {
        return new Decision.HandToDeadLetterQueue(
                Outcome.HELD, failure, overdue(heldSince), heldDetail(heldSince, untilProbe));
    }

    private static String slowDetail(int attempt, Instant waitingSince) {
        return "S3 attempt " + attempt + ", fast attempts used up; waiting since " + waitingSince + ": "
                + CONNECTION.message();
    }

    private static String overdue(Instant waitingSince) {
        return "waiting since " + waitingSince + ", longer than " + HOLD_LIMIT;
    }
}
