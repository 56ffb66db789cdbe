package dev.pastebin.upload;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.retry.BackoffPolicy;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns how an attempt ended into its {@link Outcome}: for a failure, the classification, the row's move to
 * FAILED or the message's visibility change (the backoff delay before its next attempt); and, in every case,
 * exactly one attempt log line. It never throws.
 */
@Singleton
class AttemptOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(AttemptOutcomes.class);

    private final PasteRepository repository;
    private final FailureClassifier classifier;
    private final BackoffPolicy backoff;
    private final MessageVisibility visibility;
    private final AttemptLog attemptLog;

    AttemptOutcomes(PasteRepository repository, FailureClassifier classifier, BackoffPolicy backoff,
                    MessageVisibility visibility, AttemptLog attemptLog) {
        this.repository = repository;
        this.classifier = classifier;
        this.backoff = backoff;
        this.visibility = visibility;
        this.attemptLog = attemptLog;
    }

    Outcome stored(UploadAttempt attempt, StoreResult result) {
        return switch (result) {
            case StoreResult.Stored stored -> log(attempt, Outcome.SUCCESS, null, null, null);
            case StoreResult.AlreadyTerminal terminal ->
                    log(attempt, Outcome.DUPLICATE, null, null, "row is already " + terminal.status());
            case StoreResult.LostRace race -> log(attempt, Outcome.DUPLICATE, null, null, race.detail());
            case StoreResult.NoRow noRow -> poison(attempt, "no paste row for this short code");
        };
    }

    Outcome failed(UploadAttempt attempt, RuntimeException error) {
        Failure failure = classifier.classify(error);
        if (failure.unexpected()) {
            LOG.error("unexpected failure uploading {} (attempt {}), retried as transient", attempt.shortCode(),
                    attempt.number(), error);
        }
        if (failure.isTransient() && backoff.hasAttemptsLeft(attempt.number())) {
            return retryLater(attempt, failure, failure.message());
        }
        Outcome outcome = failure.isTransient() ? Outcome.EXHAUSTED : Outcome.PERMANENT;
        String reason = outcome.label() + ": " + failure.errorClass() + ": " + failure.message();
        try {
            if (repository.markFailed(attempt.shortCode(), reason) == 0) {
                LOG.info("{} was already terminal when {} wanted to mark it FAILED", attempt.shortCode(), outcome.label());
            }
        } catch (RuntimeException e) {
            // Could not record FAILED (the database is down): retry later; the queue's maxReceiveCount is
            // above max attempts exactly so that this can happen a few times before the dead-letter queue.
            Failure dbFailure = classifier.classify(e);
            return retryLater(attempt, dbFailure, "could not mark " + outcome.label() + " paste FAILED: " + dbFailure.message());
        }
        return log(attempt, outcome, failure, null, null);
    }

    /**
     * Reported, not deleted and not sent anywhere: the queue's redrive policy moves it to the dead-letter
     * queue after maxReceiveCount deliveries. Moved by redrive, it keeps its {@code DeadLetterQueueSourceArn},
     * so once a worker that understands it is deployed it can be redriven to the source queue; and the
     * function needs neither the DLQ's URL nor permission to send to it. Its redeliveries follow the backoff
     * schedule (as UNKNOWN) rather than the queue's long default visibility timeout, so it gets there in
     * minutes, not maxReceiveCount x VisibilityTimeout.
     */
    Outcome poison(UploadAttempt attempt, String reason) {
        int delay = backoff.visibilityTimeoutSeconds(attempt.number(), ErrorClass.UNKNOWN);
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.POISON, null, delayed ? delay : null, reason);
    }

    private Outcome retryLater(UploadAttempt attempt, Failure failure, String detail) {
        int delay = backoff.visibilityTimeoutSeconds(attempt.number(), failure.errorClass());
        boolean delayed = visibility.delay(attempt.message(), delay);
        return log(attempt, Outcome.TRANSIENT, failure, delayed ? delay : null,
                delayed ? detail : detail + " (visibility change failed: back after the queue's visibility timeout)");
    }

    private Outcome log(UploadAttempt attempt, Outcome outcome, @Nullable Failure failure, @Nullable Integer delaySeconds,
                        @Nullable String detail) {
        attemptLog.write(attempt, outcome, failure, delaySeconds, detail);
        return outcome;
    }
}
