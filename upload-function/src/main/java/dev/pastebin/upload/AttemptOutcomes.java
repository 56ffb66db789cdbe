package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.CircuitOpenException;
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
 * breaker, released unstarted or failed on the database uses none. The receive count stays the outer bound:
 * on the queue's last delivery before redrive a transient failure ends the paste FAILED.
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
    private final Metrics metrics;
    private final Clock clock = Clock.systemUTC();

    AttemptOutcomes(PasteRepository repository, FailureClassifier classifier, BackoffPolicy backoff, RetryProperties retry,
                    MessageVisibility visibility, AttemptLog attemptLog, S3CircuitBreaker breaker,
                    BreakerProperties breakerProperties, Metrics metrics) {
        this.repository = repository;
        this.classifier = classifier;
        this.backoff = backoff;
        this.retry = retry;
        this.visibility = visibility;
        this.attemptLog = attemptLog;
        this.breaker = breaker;
        this.breakerProperties = breakerProperties;
        this.metrics = metrics;
    }

    Outcome stored(UploadAttempt attempt, StoreResult result) {
        return switch (result) {
            case StoreResult.Stored stored -> succeeded(attempt, stored);
            case StoreResult.AlreadyTerminal terminal -> log(attempt, Outcome.DUPLICATE, null, null, terminal.detail());
            case StoreResult.LostRace race -> log(attempt, Outcome.DUPLICATE, null, null, race.detail());
            case StoreResult.Removed removed -> log(attempt, Outcome.REMOVED, null, null, removed.detail());
            case StoreResult.RemovalFailed removal -> removalFailed(attempt, removal);
            case StoreResult.GaveUpWaiting gaveUp -> fail(attempt, Outcome.EXHAUSTED,
                    new Failure(ErrorClass.CIRCUIT_OPEN, null, false, "S3 unavailable for longer than " + gaveUp.maxWait()));
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
        if (failure.errorClass() == ErrorClass.CIRCUIT_OPEN && error instanceof CircuitOpenException open) {
            return hold(attempt, failure, open.nextProbeAt());
        }
        if (failure.errorClass().misconfiguresStorage() && breaker.enabled()) {
            // Not this paste's fault: the breaker opened for everyone; wait for its probe instead of failing.
            return hold(attempt, failure, nextProbe());
        }
        int s3Attempt = error instanceof S3AttemptFailedException s3 ? s3.attempt() : 0;
        boolean lastDelivery = attempt.number() >= retry.queueMaxReceiveCount();
        if (failure.isTransient() && !lastDelivery && (s3Attempt == 0 || backoff.hasAttemptsLeft(s3Attempt))) {
            // An S3 failure is backed off by its attempt; anything else (the database) by the delivery.
            return retryLater(attempt, s3Attempt == 0 ? attempt.number() : s3Attempt, failure, failure.message());
        }
        return fail(attempt, failure.isTransient() ? Outcome.EXHAUSTED : Outcome.PERMANENT, failure);
    }

    /**
     * Removing a removed (or FAILED) paste's object failed: reported for redelivery on the backoff schedule of
     * its delivery, whatever the failure, since acknowledging would leave the content in S3 for good. Past the
     * queue's maxReceiveCount the job is dead-lettered; the sweeper's reconciliation removes the object then.
     */
    private Outcome removalFailed(UploadAttempt attempt, StoreResult.RemovalFailed removal) {
        Failure failure = classifier.classify(removal.error());
        if (failure.unexpected()) {
            LOG.error("unexpected failure removing the object of {}", attempt.shortCode(), removal.error());
        }
        return retryLater(attempt, attempt.number(), failure, removal.detail() + ": " + failure.message());
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

    /** Back when the breaker's next probe may run (never sooner than hold-at-least), plus jitter. */
    private Outcome hold(UploadAttempt attempt, Failure failure, Instant nextProbe) {
        long untilProbe = Math.max(0, Duration.between(clock.instant(), nextProbe).toMillis());
        long base = Math.max(untilProbe, breakerProperties.holdAtLeast().toMillis());
        long jitter = RestoreSafeRandom.generator().nextLong(breakerProperties.holdJitter().toMillis() + 1);
        int delay = (int) Math.min(BackoffPolicy.MAX_VISIBILITY_TIMEOUT_SECONDS, Math.ceilDiv(base + jitter, 1000));
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.HELD, failure, delayed ? delay : null, "circuit open until " + nextProbe);
    }

    private Instant nextProbe() {
        try {
            return breaker.nextProbe().orElse(clock.instant());
        } catch (RuntimeException e) {
            return clock.instant();
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
