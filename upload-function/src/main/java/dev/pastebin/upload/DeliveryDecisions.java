package dev.pastebin.upload;

import dev.pastebin.core.delivery.Delivery;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.ReceiveBudget;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;

/**
 * What to do with a delivery, given how it {@link Ending ended}: a pure function of the ending, its
 * {@link Delivery}, the time {@code now} and the settings ({@link DeliverySchedule}, {@link ReceiveBudget}). It
 * reads no clock, database, queue or breaker and writes no log; {@link DeliveryEffects} carries the
 * {@link Decision} out.
 *
 * <p>The fast schedule counts real S3 attempts (on the paste's row), not deliveries: a delivery held by the
 * breaker, released unstarted or failed on the database uses none. A paste is FAILED by its own permanent
 * failure, or, only with {@code give-up-after-attempts} n set, by the transient failure of its n-th S3 attempt
 * ({@link Outcome#GAVE_UP}: the original specification's rule with n = 6); never by waiting, so a held delivery
 * never counts. Without it, once its fast attempts are used up it is {@link Outcome#SLOW}, back on the hold
 * schedule (one S3 attempt per delivery, a few minutes apart: negligible for a lone paste, and when traffic is
 * high the breaker opens and holds it without a PUT). A job waiting past the hold limit is handed to the
 * dead-letter queue at once; one failing transiently on the queue's last delivery is reported and left to the
 * redrive. Either way the dead-letter queue keeps its content for the sweeper to requeue.
 */
@Singleton
final class DeliveryDecisions {

    private final DeliverySchedule schedule;
    private final ReceiveBudget budget;

    DeliveryDecisions(DeliverySchedule schedule, ReceiveBudget budget) {
        this.schedule = schedule;
        this.budget = budget;
    }

    Decision decide(Delivery delivery, Ending ending, Instant now) {
        return switch (ending) {
            case Ending.Stored stored -> new Decision.Succeeded(stored.attempt(), stored.sinceCreated());
            case Ending.Duplicate duplicate -> new Decision.Acknowledge(Outcome.DUPLICATE, duplicate.detail());
            case Ending.Removed removed -> new Decision.Acknowledge(Outcome.REMOVED, removed.detail());
            case Ending.RemovalFailed removal -> removalFailed(delivery, removal);
            case Ending.Held held -> held(held, now);
            case Ending.S3AttemptFailed failed -> s3AttemptFailed(delivery, failed, now);
            case Ending.Failed failed -> failedBeforeS3(delivery, failed.failure());
            case Ending.Poison poison -> poison(delivery, poison.reason());
            case Ending.NotMarkedFailed notMarked ->
                backoff(
                        delivery,
                        notMarked.failure(),
                        "could not mark " + notMarked.outcome().label() + " paste FAILED: "
                                + notMarked.failure().message());
        };
    }

    /**
     * Removing a removed (or FAILED) paste's object failed: reported for redelivery on the backoff schedule of its
     * delivery, whatever the failure, since acknowledging would leave the content in S3 for good. Past the queue's
     * maxReceiveCount the job is dead-lettered; the sweeper's reconciliation removes the object then.
     */
    private Decision removalFailed(Delivery delivery, Ending.RemovalFailed removal) {
        return backoff(
                delivery,
                removal.failure(),
                removal.detail() + ": " + removal.failure().message());
    }

    /** Back when the breaker's next probe may run, as the hold schedule bounds it (the held backlog's spread too). */
    private Decision held(Ending.Held held, Instant now) {
        return onHoldSchedule(
                Outcome.HELD,
                held.failure(),
                held.heldSince(),
                held.untilProbe(),
                held.heldBacklog(),
                now,
                "circuit open until " + now.plus(held.untilProbe()) + "; held since " + held.heldSince(),
                held.firstHoldToNote(),
                held.noted());
    }

    private Decision s3AttemptFailed(Delivery delivery, Ending.S3AttemptFailed failed, Instant now) {
        Failure failure = failed.failure();
        if (!failure.isTransient()) {
            return new Decision.MarkFailed(Outcome.PERMANENT, failure, null);
        }
        if (schedule.givesUpAfter(failed.attempt())) {
            return new Decision.MarkFailed(
                    Outcome.GAVE_UP,
                    failure,
                    "after S3 attempt " + failed.attempt().number());
        }
        String detail = withLastDelivery(delivery, failure);
        if (schedule.hasFastAttemptsLeft(failed.attempt())) {
            return new Decision.Backoff(
                    Outcome.TRANSIENT,
                    failure,
                    schedule.backoffSeconds(failed.attempt(), failure.errorClass()),
                    detail);
        }
        // The fast attempts are used up but the failure is transient: S3 may be back in a minute or in hours. Wait
        // as a held job does, from the same first hold (noted now if this is it), so that a day of it fits the
        // queue's receives (ReceiveBudget); the next delivery tries S3 once more, through the breaker.
        Instant waitingSince = failed.firstHeldAt() != null ? failed.firstHeldAt() : now;
        return onHoldSchedule(
                Outcome.SLOW,
                failure,
                waitingSince,
                Duration.ZERO,
                0,
                now,
                "S3 attempt " + failed.attempt().number() + ", fast attempts used up; waiting since " + waitingSince
                        + ": " + detail,
                failed.firstHeldAt() == null ? now : null,
                false);
    }

    /** Not S3 (the database, the content's hash): a permanent failure fails the paste; a transient one backs off by the delivery. */
    private Decision failedBeforeS3(Delivery delivery, Failure failure) {
        if (!failure.isTransient()) {
            return new Decision.MarkFailed(Outcome.PERMANENT, failure, null);
        }
        return backoff(delivery, failure, withLastDelivery(delivery, failure));
    }

    /**
     * Reported, not deleted and not sent anywhere: the queue's redrive policy moves it to the dead-letter queue
     * after maxReceiveCount deliveries. Moved by redrive, it keeps its {@code DeadLetterQueueSourceArn}, so once a
     * worker that understands it is deployed it can be redriven to the source queue; and the function needs
     * neither the DLQ's URL nor permission to send to it. Its redeliveries follow the backoff schedule (as
     * UNKNOWN) rather than the queue's long default visibility timeout, so it gets there in hours, not
     * maxReceiveCount x VisibilityTimeout.
     */
    private Decision poison(Delivery delivery, String reason) {
        return new Decision.Backoff(
                Outcome.POISON, null, schedule.backoffSeconds(delivery, ErrorClass.UNKNOWN), reason);
    }

    /** Back after the backoff of the {@code delivery}: S3 was not reached, so no S3 attempt counts. */
    private Decision backoff(Delivery delivery, Failure failure, String detail) {
        return new Decision.Backoff(
                Outcome.TRANSIENT, failure, schedule.backoffSeconds(delivery, failure.errorClass()), detail);
    }

    /**
     * Back after the hold schedule's wait for a job waiting since {@code waitingSince}; past its limit, handed to
     * the dead-letter queue (or, if that fails, back after the queue's visibility timeout to try again).
     */
    private Decision onHoldSchedule(
            Outcome outcome,
            Failure failure,
            Instant waitingSince,
            Duration untilProbe,
            long heldBacklog,
            Instant now,
            String detail,
            @Nullable Instant firstHoldToNote,
            boolean noted) {
        DeliverySchedule.Hold wait = schedule.hold(Duration.between(waitingSince, now), untilProbe, heldBacklog);
        if (wait.overdue()) {
            return new Decision.HandToDeadLetterQueue(
                    outcome,
                    failure,
                    "waiting since " + waitingSince + ", longer than " + schedule.holdLimit(),
                    detail);
        }
        return new Decision.Hold(outcome, failure, wait.seconds(), detail, firstHoldToNote, noted);
    }

    private String withLastDelivery(Delivery delivery, Failure failure) {
        return budget.isLastDelivery(delivery)
                ? failure.message() + "; last delivery: left to the dead-letter queue, which keeps it for the sweeper"
                : failure.message();
    }
}
