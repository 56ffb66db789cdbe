package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.upload.hold.DeliveryStarts;
import dev.pastebin.upload.hold.FirstHold;
import dev.pastebin.upload.hold.HeldDeliveryRepository;
import dev.pastebin.upload.hold.HeldJobRelease;
import dev.pastebin.upload.hold.MessageVisibility;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a {@link Decision} (the row's move to FAILED, the first hold noted on the row, the message's
 * visibility change and the held delivery noted for release on close, the hand-off to the dead-letter queue) and
 * reports it: exactly one delivery line ({@link DeliveryLog}) and its metrics ({@link Metric#UPLOAD_DELIVERIES} by
 * outcome and error class; the backoff delay of a transient failure; the S3 attempt that succeeded, retries and
 * time to success of a success). Every SQS call is best effort; it throws only {@link FailedNotRecorded}, before
 * reporting anything, when the row could not be marked FAILED: then the delivery needs another decision.
 */
@Singleton
class DeliveryEffects {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryEffects.class);
    /** The ErrorClass dimension of an outcome without a failure (success, duplicate, poison). */
    static final String NO_ERROR = "none";

    /** Marking the paste FAILED failed (the database): nothing was reported. */
    static final class FailedNotRecorded extends RuntimeException {

        private static final long serialVersionUID = 1L;

        FailedNotRecorded(RuntimeException cause) {
            super("could not mark the paste FAILED", cause, false, false);
        }
    }

    private final PasteRepository repository;
    private final HeldDeliveryRepository heldDeliveries;
    private final MessageVisibility visibility;
    private final DeadLetterHandOff handOff;
    private final DeliveryLog deliveryLog;
    private final Metrics metrics;
    private final FirstHold firstHold;
    private final String breakerName;
    private final Clock clock;

    @Inject
    DeliveryEffects(
            PasteRepository repository,
            HeldDeliveryRepository heldDeliveries,
            MessageVisibility visibility,
            DeadLetterHandOff handOff,
            DeliveryLog deliveryLog,
            Metrics metrics,
            BreakerProperties breaker) {
        this(repository, heldDeliveries, visibility, handOff, deliveryLog, metrics, breaker, Clock.systemUTC());
    }

    DeliveryEffects(
            PasteRepository repository,
            HeldDeliveryRepository heldDeliveries,
            MessageVisibility visibility,
            DeadLetterHandOff handOff,
            DeliveryLog deliveryLog,
            Metrics metrics,
            BreakerProperties breaker,
            Clock clock) {
        this.repository = repository;
        this.heldDeliveries = heldDeliveries;
        this.visibility = visibility;
        this.handOff = handOff;
        this.deliveryLog = deliveryLog;
        this.metrics = metrics;
        this.firstHold = new FirstHold(repository);
        this.breakerName = breaker.name();
        this.clock = clock;
    }

    /** Carries {@code decision} out for {@code delivery} and reports it; the outcome says whether it comes back. */
    Outcome perform(UploadDelivery delivery, Decision decision) {
        return switch (decision) {
            case Decision.Succeeded succeeded -> succeeded(delivery, succeeded);
            case Decision.Acknowledge acknowledge ->
                report(delivery, acknowledge.outcome(), null, null, acknowledge.detail());
            case Decision.MarkFailed markFailed -> markFailed(delivery, markFailed);
            case Decision.Backoff backoff -> backoff(delivery, backoff);
            case Decision.Hold hold -> hold(delivery, hold);
            case Decision.HandToDeadLetterQueue handOver -> handOver(delivery, handOver);
        };
    }

    private Outcome succeeded(UploadDelivery delivery, Decision.Succeeded succeeded) {
        metrics.put(Metric.SUCCESS_ATTEMPT, succeeded.attempt().number());
        metrics.put(Metric.RETRIES_PER_SUCCESS, succeeded.attempt().retriesBefore());
        metrics.put(Metric.TIME_TO_SUCCESS, (double) succeeded.sinceCreated().toMillis());
        return report(delivery, Outcome.SUCCESS, null, null, null);
    }

    private Outcome markFailed(UploadDelivery delivery, Decision.MarkFailed decision) {
        try {
            if (repository.markFailed(delivery.shortCode(), decision.reason()) == 0) {
                LOG.info(
                        "{} was already terminal when a {} failure wanted to mark it FAILED",
                        delivery.shortCode(),
                        decision.outcome().label());
            }
        } catch (RuntimeException e) {
            // Retried later; the queue's maxReceiveCount keeps spare receives exactly so that this can happen a few
            // times before the dead-letter queue.
            throw new FailedNotRecorded(e);
        }
        return report(delivery, decision.outcome(), decision.failure(), null, decision.detail());
    }

    private Outcome backoff(UploadDelivery delivery, Decision.Backoff decision) {
        boolean delayed = visibility.delay(delivery.message(), decision.seconds());
        return report(
                delivery,
                decision.outcome(),
                decision.failure(),
                delayed ? decision.seconds() : null,
                delayed ? decision.detail() : decision.detailIfNotDelayed());
    }

    /**
     * Makes the message invisible for the hold, then notes it (and the paste's first hold, if this is it) in one
     * statement, for the release on close ({@link HeldJobRelease}): noted after the change, a release always comes
     * after the hold it undoes. Not noted: it keeps its hold. A job the breaker held is noted only while the breaker is
     * not closed; when it closed meanwhile, the release may already have passed this row, so the job is made visible
     * again at once instead of waiting out its hold. A hold the delivery's first statement noted already
     * ({@link DeliveryStarts}) only changes the visibility.
     */
    private Outcome hold(UploadDelivery delivery, Decision.Hold decision) {
        boolean delayed = visibility.delay(delivery.message(), decision.seconds());
        if (!decision.noted()) {
            if (!delayed) {
                noteFirstHold(delivery, decision.firstHoldToNote());
            } else if (!noted(delivery, decision) && visibility.delay(delivery.message(), 0)) {
                return report(
                        delivery,
                        decision.outcome(),
                        decision.failure(),
                        0,
                        decision.detail() + "; the breaker closed meanwhile: back at once");
            }
        }
        return report(
                delivery,
                decision.outcome(),
                decision.failure(),
                delayed ? decision.seconds() : null,
                decision.detail());
    }

    /** False only when a hold of the breaker was not noted because the breaker is closed now (or the paste is done). */
    private boolean noted(UploadDelivery delivery, Decision.Hold decision) {
        String shortCode = delivery.shortCode();
        String handle = delivery.message().receiptHandle();
        Instant until = clock.instant().plusSeconds(decision.seconds());
        try {
            if (decision.outcome() == Outcome.HELD) {
                return heldDeliveries.recordBreakerHold(
                                shortCode, handle, until, decision.firstHoldToNote(), breakerName)
                        == 1;
            }
            heldDeliveries.recordHeldDelivery(shortCode, handle, until, decision.firstHoldToNote());
        } catch (RuntimeException notNoted) {
            LOG.warn(
                    "could not note the held delivery of {}: {}; it comes back at its hold's end",
                    shortCode,
                    notNoted.toString());
        }
        return true;
    }

    /**
     * One SQS call either way (RecordTimeBudget): not handed over, it comes back after the queue's visibility
     * timeout (360 s, longer than the overdue wait) and tries again.
     */
    private Outcome handOver(UploadDelivery delivery, Decision.HandToDeadLetterQueue decision) {
        return handOff.send(delivery.message())
                ? report(delivery, Outcome.OVERDUE, decision.failure(), null, decision.handedDetail())
                : report(delivery, decision.waiting(), decision.failure(), null, decision.notHandedDetail());
    }

    private void noteFirstHold(UploadDelivery delivery, @Nullable Instant at) {
        if (at != null) {
            firstHold.note(delivery.shortCode(), at);
        }
    }

    private Outcome report(
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
