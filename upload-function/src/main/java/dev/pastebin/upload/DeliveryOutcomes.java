package dev.pastebin.upload;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.ReceiveBudget;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.HeldDeliveryRepository;
import dev.pastebin.core.paste.PasteRepository;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns how a delivery ended into its {@link Outcome}: for a failure, the classification, the row's move to
 * FAILED or the message's visibility change (the backoff delay before its next delivery, the time to the
 * breaker's next probe, or the hold schedule's wait, whose message is noted on the row for release on close);
 * and, in every case, exactly one delivery log line and its metrics ({@link Metric#UPLOAD_DELIVERIES} by outcome
 * and error class; the backoff delay of a transient failure; the S3 attempt that succeeded, retries and time to
 * success of a success). It never throws.
 *
 * <p>The fast schedule counts real S3 attempts (on the paste's row), not deliveries: a delivery held by the
 * breaker, released unstarted or failed on the database uses none. A paste is FAILED by its own permanent
 * failure, or, only with {@code give-up-after-attempts} n set, by the transient failure of its n-th S3 attempt
 * ({@link Outcome#GAVE_UP}: the original specification's rule with n = 6); never by waiting, so a held delivery
 * never counts. Without it, once its fast attempts are used up it is
 * {@link Outcome#SLOW}, back on the breaker's {@link DeliverySchedule} (one S3 attempt per delivery, a few minutes
 * apart: negligible for a lone paste, and when traffic is high the breaker opens and holds it without a PUT).
 * A job waiting past the hold limit is handed to the dead-letter queue at once; one failing transiently on the
 * queue's last delivery is reported and left to the redrive. Either way the dead-letter queue keeps its content
 * for the sweeper to requeue.
 */
@Singleton
class DeliveryOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryOutcomes.class);
    /** The ErrorClass dimension of an outcome without a failure (success, duplicate, poison). */
    static final String NO_ERROR = "none";

    private final PasteRepository repository;
    private final HeldDeliveryRepository heldDeliveries;
    private final FailureClassifier classifier;
    private final DeliverySchedule schedule;
    private final ReceiveBudget budget;
    private final MessageVisibility visibility;
    private final DeadLetterHandOff handOff;
    private final DeliveryLog deliveryLog;
    private final S3CircuitBreaker breaker;
    private final FirstHold firstHold;
    private final Metrics metrics;
    private final Clock clock;

    @Inject
    DeliveryOutcomes(
            PasteRepository repository,
            HeldDeliveryRepository heldDeliveries,
            FailureClassifier classifier,
            DeliverySchedule schedule,
            ReceiveBudget budget,
            MessageVisibility visibility,
            DeadLetterHandOff handOff,
            DeliveryLog deliveryLog,
            S3CircuitBreaker breaker,
            Metrics metrics) {
        this(
                repository,
                heldDeliveries,
                classifier,
                schedule,
                budget,
                visibility,
                handOff,
                deliveryLog,
                breaker,
                metrics,
                Clock.systemUTC());
    }

    DeliveryOutcomes(
            PasteRepository repository,
            HeldDeliveryRepository heldDeliveries,
            FailureClassifier classifier,
            DeliverySchedule schedule,
            ReceiveBudget budget,
            MessageVisibility visibility,
            DeadLetterHandOff handOff,
            DeliveryLog deliveryLog,
            S3CircuitBreaker breaker,
            Metrics metrics,
            Clock clock) {
        this.repository = repository;
        this.heldDeliveries = heldDeliveries;
        this.classifier = classifier;
        this.schedule = schedule;
        this.budget = budget;
        this.visibility = visibility;
        this.handOff = handOff;
        this.deliveryLog = deliveryLog;
        this.breaker = breaker;
        this.firstHold = new FirstHold(repository, clock);
        this.metrics = metrics;
        this.clock = clock;
    }

    Outcome stored(UploadDelivery delivery, StoreResult result) {
        return switch (result) {
            case StoreResult.Stored stored -> succeeded(delivery, stored);
            case StoreResult.AlreadyTerminal terminal ->
                log(delivery, Outcome.DUPLICATE, null, null, terminal.detail());
            case StoreResult.LostRace race -> log(delivery, Outcome.DUPLICATE, null, null, race.detail());
            case StoreResult.Removed removed -> log(delivery, Outcome.REMOVED, null, null, removed.detail());
            case StoreResult.RemovalFailed removal -> removalFailed(delivery, removal);
            case StoreResult.Held held -> hold(delivery, held);
        };
    }

    private Outcome succeeded(UploadDelivery delivery, StoreResult.Stored stored) {
        metrics.put(Metric.SUCCESS_ATTEMPT, stored.s3Attempt().number());
        metrics.put(Metric.RETRIES_PER_SUCCESS, stored.s3Attempt().retriesBefore());
        metrics.put(Metric.TIME_TO_SUCCESS, stored.sinceCreated().toMillis());
        return log(delivery, Outcome.SUCCESS, null, null, null);
    }

    Outcome failed(UploadDelivery delivery, RuntimeException error) {
        Failure failure = classifier.classify(error);
        if (failure.unexpected()) {
            LOG.error(
                    "unexpected failure uploading {} (delivery {}), retried as transient",
                    delivery.shortCode(),
                    delivery.number().number(),
                    error);
        }
        if (!failure.isTransient()) {
            return fail(delivery, Outcome.PERMANENT, failure, null);
        }
        String detail = budget.isLastDelivery(delivery.number())
                ? failure.message() + "; last delivery: left to the dead-letter queue, which keeps it for the sweeper"
                : failure.message();
        if (error instanceof S3AttemptFailedException s3) {
            if (schedule.givesUpAfter(s3.attempt())) {
                return fail(
                        delivery,
                        Outcome.GAVE_UP,
                        failure,
                        "after S3 attempt " + s3.attempt().number());
            }
            return schedule.hasFastAttemptsLeft(s3.attempt())
                    ? retryLater(delivery, schedule.backoffSeconds(s3.attempt(), failure.errorClass()), failure, detail)
                    : slow(delivery, failure, s3, detail);
        }
        // Not S3 (the database): backed off by the delivery.
        return retryLater(delivery, schedule.backoffSeconds(delivery.number(), failure.errorClass()), failure, detail);
    }

    /**
     * Removing a removed (or FAILED) paste's object failed: reported for redelivery on the backoff schedule of
     * its delivery, whatever the failure, since acknowledging would leave the content in S3 for good. Past the
     * queue's maxReceiveCount the job is dead-lettered; the sweeper's reconciliation removes the object then.
     */
    private Outcome removalFailed(UploadDelivery delivery, StoreResult.RemovalFailed removal) {
        Failure failure = classifier.classify(removal.error());
        if (failure.unexpected()) {
            LOG.error("unexpected failure removing the object of {}", delivery.shortCode(), removal.error());
        }
        return retryLater(
                delivery,
                schedule.backoffSeconds(delivery.number(), failure.errorClass()),
                failure,
                removal.detail() + ": " + failure.message());
    }

    /**
     * Reported, not deleted and not sent anywhere: the queue's redrive policy moves it to the dead-letter
     * queue after maxReceiveCount deliveries. Moved by redrive, it keeps its {@code DeadLetterQueueSourceArn},
     * so once a worker that understands it is deployed it can be redriven to the source queue; and the
     * function needs neither the DLQ's URL nor permission to send to it. Its redeliveries follow the backoff
     * schedule (as UNKNOWN) rather than the queue's long default visibility timeout, so it gets there in
     * hours, not maxReceiveCount x VisibilityTimeout.
     */
    Outcome poison(UploadDelivery delivery, String reason) {
        int delay = schedule.backoffSeconds(delivery.number(), ErrorClass.UNKNOWN);
        boolean delayed = visibility.delay(delivery.message(), delay);
        return log(delivery, Outcome.POISON, null, delayed ? delay : null, reason);
    }

    /**
     * A permanent failure, or a transient one given up ({@link Outcome#GAVE_UP}): FAILED with the reason
     * {@code <outcome>: <error class>: [<detail>: ]<message>}, and the message acknowledged.
     */
    private Outcome fail(UploadDelivery delivery, Outcome outcome, Failure failure, @Nullable String detail) {
        String reason = outcome.label() + ": " + failure.errorClass() + ": "
                + (detail == null ? failure.message() : detail + ": " + failure.message());
        try {
            if (repository.markFailed(delivery.shortCode(), reason) == 0) {
                LOG.info(
                        "{} was already terminal when a {} failure wanted to mark it FAILED",
                        delivery.shortCode(),
                        outcome.label());
            }
        } catch (RuntimeException e) {
            // Could not record FAILED (the database is down): retry later; the queue's maxReceiveCount keeps
            // spare receives exactly so that this can happen a few times before the dead-letter queue.
            Failure dbFailure = classifier.classify(e);
            return retryLater(
                    delivery,
                    schedule.backoffSeconds(delivery.number(), dbFailure.errorClass()),
                    dbFailure,
                    "could not mark " + outcome.label() + " paste FAILED: " + dbFailure.message());
        }
        return log(delivery, outcome, failure, null, detail);
    }

    /** Back when the breaker's next probe may run, as {@link DeliverySchedule} bounds it. */
    private Outcome hold(UploadDelivery delivery, StoreResult.Held held) {
        Failure failure = classifier.classify(held.cause());
        Instant now = clock.instant();
        Duration untilProbe = breaker.untilNextProbe(held.cause(), now);
        return onHoldSchedule(
                delivery,
                Outcome.HELD,
                failure,
                held.heldSince(),
                untilProbe,
                "circuit open until " + now.plus(untilProbe) + "; held since " + held.heldSince());
    }

    /**
     * The fast attempts are used up but the failure is transient: S3 may be back in a minute or in hours. Wait
     * as a held job does, from the same first hold (noted now if this is it), so that a day of it fits the
     * queue's receives ({@link DeliveryBudget}); the next delivery tries S3 once more, through the breaker.
     */
    private Outcome slow(UploadDelivery delivery, Failure failure, S3AttemptFailedException error, String detail) {
        Instant waitingSince = firstHold.since(delivery.shortCode(), error.firstHeldAt());
        return onHoldSchedule(
                delivery,
                Outcome.SLOW,
                failure,
                waitingSince,
                Duration.ZERO,
                "S3 attempt " + error.attempt().number() + ", fast attempts used up; waiting since " + waitingSince
                        + ": " + detail);
    }

    /**
     * Back after the {@link DeliverySchedule}'s wait for a job waiting since {@code waitingSince}; past its limit,
     * handed to the dead-letter queue and acknowledged ({@link DeadLetterHandOff}), or, if that fails, back after
     * the queue's visibility timeout to try again.
     */
    private Outcome onHoldSchedule(
            UploadDelivery delivery,
            Outcome outcome,
            Failure failure,
            Instant waitingSince,
            Duration untilProbe,
            String detail) {
        DeliverySchedule.Hold wait = schedule.hold(Duration.between(waitingSince, clock.instant()), untilProbe);
        String overdue = "waiting since " + waitingSince + ", longer than " + schedule.holdLimit();
        if (wait.overdue()) {
            // One SQS call either way (RecordTimeBudget): not handed over, it comes back after the queue's
            // visibility timeout (360 s, longer than the overdue wait) and tries again.
            return handOff.send(delivery.message())
                    ? log(delivery, Outcome.OVERDUE, failure, null, overdue + ": handed to the dead-letter queue")
                    : log(
                            delivery,
                            outcome,
                            failure,
                            null,
                            overdue + "; could not hand it to the dead-letter queue, "
                                    + "back after the queue's visibility timeout: " + detail);
        }
        boolean delayed = visibility.delay(delivery.message(), wait.seconds());
        if (delayed) {
            noteHeldDelivery(delivery, wait);
        }
        return log(delivery, outcome, failure, delayed ? wait.seconds() : null, detail);
    }

    /**
     * Notes the message this hold made invisible, once it is (so a release always comes after the hold it undoes),
     * for the probe that closes the breaker to release ({@link HeldJobRelease}). Not noted: it keeps its hold.
     */
    private void noteHeldDelivery(UploadDelivery delivery, DeliverySchedule.Hold wait) {
        try {
            heldDeliveries.recordHeldDelivery(
                    delivery.shortCode(),
                    delivery.message().receiptHandle(),
                    clock.instant().plusSeconds(wait.seconds()));
        } catch (RuntimeException notNoted) {
            LOG.warn(
                    "could not note the held delivery of {}: {}; it comes back at its hold's end",
                    delivery.shortCode(),
                    notNoted.toString());
        }
    }

    /** Back after the backoff {@code delay}: of the S3 attempt that failed, or of the delivery if S3 was not reached. */
    private Outcome retryLater(UploadDelivery delivery, int delay, Failure failure, String detail) {
        boolean delayed = visibility.delay(delivery.message(), delay);
        return log(
                delivery,
                Outcome.TRANSIENT,
                failure,
                delayed ? delay : null,
                delayed ? detail : detail + " (visibility change failed: back after the queue's visibility timeout)");
    }

    private Outcome log(
            UploadDelivery delivery,
            Outcome outcome,
            @Nullable Failure failure,
            @Nullable Integer delaySeconds,
            @Nullable String detail) {
        deliveryLog.write(delivery, outcome, failure, delaySeconds, detail);
        metrics.put(
                Metric.UPLOAD_DELIVERIES,
                1,
                outcome.label(),
                failure == null ? NO_ERROR : failure.errorClass().name());
        if (outcome == Outcome.TRANSIENT && delaySeconds != null) {
            metrics.put(Metric.BACKOFF_DELAY, delaySeconds);
        }
        return outcome;
    }
}
