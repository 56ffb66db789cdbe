package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.CircuitOpenException;
import dev.pastebin.core.breaker.HoldSchedule;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.random.RestoreSafeRandom;
import dev.pastebin.core.retry.BackoffPolicy;
import dev.pastebin.core.retry.RetryProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Turns how an attempt ended into its {@link Outcome}: for a failure, the classification, the row's move to
 * FAILED or the message's visibility change (the backoff delay before its next attempt, or the time to the
 * breaker's next probe); and, in every case, exactly one attempt log line and its metrics
 * ({@link Metric#UPLOAD_ATTEMPTS} by outcome and error class; the backoff delay of a transient failure; the
 * attempt, retries and time to success of a success). It never throws.
 *
 * <p>The attempt budget counts real S3 attempts (on the paste's row), not deliveries: a delivery held by the
 * breaker, released unstarted or failed on the database uses none. A paste is FAILED only by its own
 * permanent failure or its last S3 attempt, never by waiting: a job held past the hold limit, or failing
 * transiently on the queue's last delivery, is reported and left to the redrive, and the dead-letter queue
 * keeps its content for the sweeper to requeue.
 */
@Singleton
class AttemptOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(AttemptOutcomes.class);
    /** The ErrorClass dimension of an outcome without a failure (success, duplicate, poison). */
    static final String NO_ERROR = "none";

    private final PasteRepository repository;
    private final FailureClassifier classifier;
    private final BackoffPolicy backoff;
    private final RetryProperties retry;
    private final MessageVisibility visibility;
    private final AttemptLog attemptLog;
    private final S3CircuitBreaker breaker;
    private final BreakerProperties breakerProperties;
    private final HoldSchedule holds;
    private final Metrics metrics;
    private final Clock clock;

    @Inject
    AttemptOutcomes(PasteRepository repository, FailureClassifier classifier, BackoffPolicy backoff, RetryProperties retry,
                    MessageVisibility visibility, AttemptLog attemptLog, S3CircuitBreaker breaker,
                    BreakerProperties breakerProperties, Metrics metrics) {
        this(repository, classifier, backoff, retry, visibility, attemptLog, breaker, breakerProperties, metrics,
                Clock.systemUTC());
    }

    AttemptOutcomes(PasteRepository repository, FailureClassifier classifier, BackoffPolicy backoff, RetryProperties retry,
                    MessageVisibility visibility, AttemptLog attemptLog, S3CircuitBreaker breaker,
                    BreakerProperties breakerProperties, Metrics metrics, Clock clock) {
        this.repository = repository;
        this.classifier = classifier;
        this.backoff = backoff;
        this.retry = retry;
        this.visibility = visibility;
        this.attemptLog = attemptLog;
        this.breaker = breaker;
        this.breakerProperties = breakerProperties;
        this.holds = new HoldSchedule(breakerProperties);
        this.metrics = metrics;
        this.clock = clock;
    }

    Outcome stored(UploadAttempt attempt, StoreResult result) {
        return switch (result) {
            case StoreResult.Stored stored -> succeeded(attempt, stored);
            case StoreResult.AlreadyTerminal terminal ->
                    log(attempt, Outcome.DUPLICATE, null, null, "row is already " + terminal.status());
            case StoreResult.LostRace race -> log(attempt, Outcome.DUPLICATE, null, null, race.detail());
            case StoreResult.NoRow noRow -> poison(attempt, "no paste row for this short code");
            case StoreResult.Held held -> hold(attempt, held);
        };
    }

    private Outcome succeeded(UploadAttempt attempt, StoreResult.Stored stored) {
        metrics.put(Metric.SUCCESS_ATTEMPT, stored.s3Attempt());
        metrics.put(Metric.RETRIES_PER_SUCCESS, stored.s3Attempt() - 1);
        metrics.put(Metric.TIME_TO_SUCCESS, stored.sinceCreated().toMillis());
        return log(attempt, Outcome.SUCCESS, null, null, null);
    }

    Outcome failed(UploadAttempt attempt, RuntimeException error) {
        Failure failure = classifier.classify(error);
        if (failure.unexpected()) {
            LOG.error("unexpected failure uploading {} (attempt {}), retried as transient", attempt.shortCode(),
                    attempt.number(), error);
        }
        int s3Attempt = error instanceof S3AttemptFailedException s3 ? s3.attempt() : 0;
        if (failure.isTransient() && (s3Attempt == 0 || backoff.hasAttemptsLeft(s3Attempt))) {
            // An S3 failure is backed off by its attempt; anything else (the database) by the delivery.
            boolean lastDelivery = attempt.number() >= retry.queueMaxReceiveCount();
            return retryLater(attempt, s3Attempt == 0 ? attempt.number() : s3Attempt, failure, lastDelivery
                    ? failure.message() + "; last delivery: left to the dead-letter queue, which keeps it for the sweeper"
                    : failure.message());
        }
        return fail(attempt, failure.isTransient() ? Outcome.EXHAUSTED : Outcome.PERMANENT, failure);
    }

    /**
     * Reported, not deleted and not sent anywhere: the queue's redrive policy moves it to the dead-letter
     * queue after maxReceiveCount deliveries. Moved by redrive, it keeps its {@code DeadLetterQueueSourceArn},
     * so once a worker that understands it is deployed it can be redriven to the source queue; and the
     * function needs neither the DLQ's URL nor permission to send to it. Its redeliveries follow the backoff
     * schedule (as UNKNOWN) rather than the queue's long default visibility timeout, so it gets there in
     * hours, not maxReceiveCount x VisibilityTimeout.
     */
    Outcome poison(UploadAttempt attempt, String reason) {
        int delay = backoff.visibilityTimeoutSeconds(attempt.number(), ErrorClass.UNKNOWN);
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.POISON, null, delayed ? delay : null, reason);
    }

    private Outcome fail(UploadAttempt attempt, Outcome outcome, Failure failure) {
        String reason = outcome.label() + ": " + failure.errorClass() + ": " + failure.message();
        try {
            if (repository.markFailed(attempt.shortCode(), reason) == 0) {
                LOG.info("{} was already terminal when {} wanted to mark it FAILED", attempt.shortCode(), outcome.label());
            }
        } catch (RuntimeException e) {
            // Could not record FAILED (the database is down): retry later; the queue's maxReceiveCount is
            // above max attempts exactly so that this can happen a few times before the dead-letter queue.
            Failure dbFailure = classifier.classify(e);
            return retryLater(attempt, attempt.number(), dbFailure,
                    "could not mark " + outcome.label() + " paste FAILED: " + dbFailure.message());
        }
        return log(attempt, outcome, failure, null, null);
    }

    /**
     * Back when the breaker's next probe may run, as {@link HoldSchedule} bounds it, plus jitter. Past the hold
     * limit: back after hold-at-least, so that the remaining receives run out and the redrive moves it to the
     * dead-letter queue soon.
     */
    private Outcome hold(UploadAttempt attempt, StoreResult.Held held) {
        Failure failure = classifier.classify(held.cause());
        Instant now = clock.instant();
        Duration heldFor = Duration.between(held.heldSince(), now);
        Instant nextProbe = held.cause() instanceof CircuitOpenException open ? open.nextProbeAt() : nextProbe(now);
        if (holds.pastLimit(heldFor)) {
            int delay = seconds(breakerProperties.holdAtLeast().plus(jitter()));
            boolean delayed = visibility.delay(attempt.message(), delay);
            return log(attempt, Outcome.OVERDUE, failure, delayed ? delay : null, "held since " + held.heldSince()
                    + ", longer than " + breakerProperties.holdLimit() + ": left to the dead-letter queue");
        }
        Duration untilProbe = Duration.between(now, nextProbe);
        int delay = seconds(holds.hold(heldFor, untilProbe.isNegative() ? Duration.ZERO : untilProbe).plus(jitter()));
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.HELD, failure, delayed ? delay : null,
                "circuit open until " + nextProbe + "; held since " + held.heldSince());
    }

    private Duration jitter() {
        return Duration.ofMillis(RestoreSafeRandom.generator().nextLong(breakerProperties.holdJitter().toMillis() + 1));
    }

    private static int seconds(Duration delay) {
        return (int) Math.min(BackoffPolicy.MAX_VISIBILITY_TIMEOUT_SECONDS, Math.ceilDiv(delay.toMillis(), 1000));
    }

    private Instant nextProbe(Instant now) {
        try {
            return breaker.nextProbe().orElse(now);
        } catch (RuntimeException e) {
            return now;
        }
    }

    private Outcome retryLater(UploadAttempt attempt, int attemptNumber, Failure failure, String detail) {
        int delay = backoff.visibilityTimeoutSeconds(attemptNumber, failure.errorClass());
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.TRANSIENT, failure, delayed ? delay : null,
                delayed ? detail : detail + " (visibility change failed: back after the queue's visibility timeout)");
    }

    private Outcome log(UploadAttempt attempt, Outcome outcome, @Nullable Failure failure, @Nullable Integer delaySeconds,
                        @Nullable String detail) {
        attemptLog.write(attempt, outcome, failure, delaySeconds, detail);
        metrics.put(Metric.UPLOAD_ATTEMPTS, 1, outcome.label(), failure == null ? NO_ERROR : failure.errorClass().name());
        if (outcome == Outcome.TRANSIENT && delaySeconds != null) {
            metrics.put(Metric.BACKOFF_DELAY, delaySeconds);
        }
        return outcome;
    }
}
