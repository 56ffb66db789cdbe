package dev.pastebin.upload;

import java.util.Locale;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.retry.BackoffPolicy;
import dev.pastebin.core.retry.ErrorClass;
import dev.pastebin.core.retry.Failure;
import dev.pastebin.core.retry.FailureClassifier;
import dev.pastebin.core.retry.IntegrityMismatchException;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * The use case "upload one paste": one delivery of one upload job, from IN_PROGRESS to PROCESSED or FAILED
 * (seed 003), under at-least-once delivery. Every step is idempotent: the object key is the short code,
 * and both transitions are guarded updates that only move an IN_PROGRESS row.
 *
 * <p>It never throws: every failure is classified (seed 001) and turned into an {@link Outcome} that says
 * whether the message is reported for redelivery or acknowledged.
 */
@Singleton
public class UploadPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(UploadPasteService.class);

    private final UploadJobCodec codec;
    private final PasteRepository repository;
    private final PasteObjects objects;
    private final StorageProperties storage;
    private final FailureClassifier classifier;
    private final BackoffPolicy backoff;
    private final MessageVisibility visibility;
    private final AttemptLog attemptLog;

    UploadPasteService(UploadJobCodec codec, PasteRepository repository, PasteObjects objects, StorageProperties storage,
                       FailureClassifier classifier, BackoffPolicy backoff, MessageVisibility visibility,
                       AttemptLog attemptLog) {
        this.codec = codec;
        this.repository = repository;
        this.objects = objects;
        this.storage = storage;
        this.classifier = classifier;
        this.backoff = backoff;
        this.visibility = visibility;
        this.attemptLog = attemptLog;
    }

    Outcome upload(UploadMessage message) {
        long started = System.nanoTime();
        UploadJob job;
        try {
            job = codec.decode(message.body());
        } catch (MalformedUploadJobException e) {
            return poison(message, null, e.getMessage(), started);
        }
        String shortCode = job.shortCode();
        try {
            return store(message, job, started);
        } catch (RuntimeException e) {
            return handleFailure(message, shortCode, e, started);
        }
    }

    private Outcome store(UploadMessage message, UploadJob job, long started) {
        String shortCode = job.shortCode();
        Optional<Paste> row = repository.findById(shortCode);
        if (row.isEmpty()) {
            // The create function inserts the row before it sends the job: a job without a row cannot be
            // processed by any retry. Like an undecodable message, it goes to the dead-letter queue.
            return poison(message, shortCode, "no paste row for this short code", started);
        }
        Paste paste = row.get();
        if (paste.status() != PasteStatus.IN_PROGRESS) {
            attemptLog.write(message, shortCode, Outcome.DUPLICATE, null, elapsedMs(started), null, "row is already " + paste.status());
            return Outcome.DUPLICATE;
        }
        String actual = ContentHash.sha256Hex(job.content());
        if (!actual.equalsIgnoreCase(paste.contentSha256().trim())) {
            throw new IntegrityMismatchException("content hashes to " + actual + " but the paste row has " + paste.contentSha256());
        }
        objects.put(shortCode, job.content(), paste.contentSha256().trim().toLowerCase(Locale.ROOT));
        if (repository.markProcessed(shortCode, storage.location(shortCode)) == 1) {
            attemptLog.write(message, shortCode, Outcome.SUCCESS, null, elapsedMs(started), null, null);
            return Outcome.SUCCESS;
        }
        return resolveLostRace(message, shortCode, started);
    }

    /**
     * The guarded update found the row no longer IN_PROGRESS: a concurrent delivery finished it while this
     * one was uploading. PROCESSED: the object is that paste's content (same key, same bytes), keep it.
     * FAILED: nothing will ever reference the object (FAILED is terminal and the read path answers 404),
     * so remove it rather than leave unreadable content behind.
     */
    private Outcome resolveLostRace(UploadMessage message, String shortCode, long started) {
        PasteStatus now = repository.findById(shortCode).map(Paste::status).orElse(null);
        String detail = "row went " + now + " during the upload";
        if (now != PasteStatus.PROCESSED) {
            try {
                objects.delete(shortCode);
                detail += "; object removed";
            } catch (RuntimeException e) {
                detail += "; object could not be removed: " + e.getMessage();
                LOG.warn("orphan object for {} ({}) could not be removed", shortCode, now, e);
            }
        }
        attemptLog.write(message, shortCode, Outcome.DUPLICATE, null, elapsedMs(started), null, detail);
        return Outcome.DUPLICATE;
    }

    private Outcome handleFailure(UploadMessage message, String shortCode, RuntimeException error, long started) {
        Failure failure = classifier.classify(error);
        if (failure.unexpected()) {
            LOG.error("unexpected failure uploading {} (attempt {}), retried as transient", shortCode, message.attempt(), error);
        }
        if (failure.isTransient() && backoff.hasAttemptsLeft(message.attempt())) {
            return retryLater(message, shortCode, failure, started, null);
        }
        Outcome outcome = failure.isTransient() ? Outcome.EXHAUSTED : Outcome.PERMANENT;
        String reason = outcome.label() + ": " + failure.errorClass() + ": " + failure.message();
        try {
            if (repository.markFailed(shortCode, reason) == 0) {
                LOG.info("{} was already terminal when {} wanted to mark it FAILED", shortCode, outcome.label());
            }
        } catch (RuntimeException e) {
            // Could not record FAILED (the database is down): retry later; the queue's maxReceiveCount is
            // above max attempts exactly so that this can happen a few times before the dead-letter queue.
            Failure dbFailure = classifier.classify(e);
            return retryLater(message, shortCode, dbFailure, started,
                    "could not mark " + outcome.label() + " paste FAILED: " + dbFailure.message());
        }
        attemptLog.write(message, shortCode, outcome, failure, elapsedMs(started), null, null);
        return outcome;
    }

    /**
     * Reported, not deleted and not sent anywhere: the queue's redrive policy moves it to the dead-letter
     * queue after maxReceiveCount deliveries. Moved by redrive, it keeps its {@code DeadLetterQueueSourceArn},
     * so once a worker that understands it is deployed it can be redriven to the source queue; and the
     * function needs neither the DLQ's URL nor permission to send to it. Its redeliveries follow the backoff
     * schedule (as UNKNOWN) rather than the queue's long default visibility timeout, so it gets there in
     * minutes, not maxReceiveCount x VisibilityTimeout.
     */
    private Outcome poison(UploadMessage message, String shortCode, String reason, long started) {
        int delay = backoff.visibilityTimeoutSeconds(message.attempt(), ErrorClass.UNKNOWN);
        boolean delayed = visibility.delay(message, delay);
        attemptLog.write(message, shortCode, Outcome.POISON, null, elapsedMs(started), delayed ? delay : null, reason);
        return Outcome.POISON;
    }

    private Outcome retryLater(UploadMessage message, String shortCode, Failure failure, long started, String detail) {
        int delay = backoff.visibilityTimeoutSeconds(message.attempt(), failure.errorClass());
        boolean delayed = visibility.delay(message, delay);
        String text = detail != null ? detail : failure.message();
        attemptLog.write(message, shortCode, Outcome.TRANSIENT, failure, elapsedMs(started), delayed ? delay : null,
                delayed ? text : text + " (visibility change failed: back after the queue's visibility timeout)");
        return Outcome.TRANSIENT;
    }

    private static long elapsedMs(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
