package dev.pastebin.upload;

import dev.pastebin.core.breaker.CircuitOpenException;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.failure.IntegrityMismatchException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.upload.hold.DeliveryStart;
import dev.pastebin.upload.hold.DeliveryStarts;
import dev.pastebin.upload.hold.FirstHold;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores one upload job: checks the row and the content's hash, puts the content in S3 and moves the row
 * from IN_PROGRESS to PROCESSED. Every step is idempotent under at-least-once delivery: the object key is the
 * short code, and the transition is a guarded update that only moves an IN_PROGRESS row. The S3 call goes
 * through the shared {@link S3CircuitBreaker}; each real call is counted on the paste's row (the fast schedule
 * goes by it). A failure is thrown for {@link DeliveryOutcomes} to classify: an S3 failure as an
 * {@link S3AttemptFailedException} that says which attempt it was. An open breaker, or an S3 that says it is
 * misconfigured for everyone while the breaker is on, is no failure of this paste: it is {@link StoreResult.Held}
 * (no attempt spent), from the paste's first hold, since a held job's wait counts from it ({@link FirstHold}).
 *
 * <p>The row and the breaker's are read in one statement ({@link DeliveryStarts}), which also holds the job at once
 * when the breaker is open for a while: a held delivery costs that one statement, a stored one that and the move to
 * PROCESSED.
 */
@Singleton
class PasteUploader {

    private static final Logger LOG = LoggerFactory.getLogger(PasteUploader.class);

    private final PasteRepository repository;
    private final DeliveryStarts starts;
    private final PasteContentStore contentStore;
    private final S3CircuitBreaker breaker;
    private final FailureClassifier classifier;
    private final BlockedContentRefusal blockedContent;
    private final Clock clock;

    @Inject
    PasteUploader(
            PasteRepository repository,
            DeliveryStarts starts,
            PasteContentStore contentStore,
            S3CircuitBreaker breaker,
            FailureClassifier classifier,
            BlockedContentRefusal blockedContent) {
        this(repository, starts, contentStore, breaker, classifier, blockedContent, Clock.systemUTC());
    }

    PasteUploader(
            PasteRepository repository,
            DeliveryStarts starts,
            PasteContentStore contentStore,
            S3CircuitBreaker breaker,
            FailureClassifier classifier,
            BlockedContentRefusal blockedContent,
            Clock clock) {
        this.repository = repository;
        this.starts = starts;
        this.contentStore = contentStore;
        this.breaker = breaker;
        this.classifier = classifier;
        this.blockedContent = blockedContent;
        this.clock = clock;
    }

    /** Stores {@code job}, delivered in the message {@code receiptHandle} names (noted if the job is held). */
    StoreResult store(UploadJob job, String receiptHandle) {
        String shortCode = job.shortCode();
        String actual = ContentHash.sha256Hex(job.content());
        DeliveryStart start = starts.begin(shortCode, actual, receiptHandle, clock.instant());
        if (start.held() && start.breaker() != null) {
            // held in that very statement, first hold and message noted: nothing more to write
            return new StoreResult.Held(
                    new CircuitOpenException(start.breaker().nextProbeAt()), start.heldSince(), null, true);
        }
        Optional<Paste> row = start.row();
        if (row.isEmpty()) {
            // The create function inserts the row before it sends the job: the paste was removed since, and an
            // earlier delivery's PUT may have landed after the removal.
            return removeObject(shortCode, "no paste row: the paste was removed", StoreResult.Removed::new);
        }
        Paste paste = row.get();
        if (paste.status() == PasteStatus.FAILED) {
            // a delivery whose PUT lost the race to FAILED may have left its object (and come back for it)
            return removeObject(shortCode, "row is already FAILED", StoreResult.AlreadyTerminal::new);
        }
        if (paste.status() != PasteStatus.IN_PROGRESS) {
            return new StoreResult.AlreadyTerminal("row is already " + paste.status());
        }
        String expected = paste.contentSha256().trim().toLowerCase(Locale.ROOT);
        if (!actual.equals(expected)) {
            throw new IntegrityMismatchException(
                    "content hashes to " + actual + " but the paste row has " + paste.contentSha256());
        }
        // A delivery the breaker holds makes no PUT, so it has no blocklist to probe yet: a round trip saved on every
        // held delivery whose hold the first statement could not note (the probe due within seconds, or in flight).
        Optional<CircuitOpenException> heldByBreaker = breaker.refusal(start.breaker());
        if (heldByBreaker.isPresent()) {
            return held(paste, heldByBreaker.get());
        }
        // blocklisted after its create was accepted: never stored (no PUT)
        Optional<StoreResult> refused = blockedContent.refuseIfBlocked(paste, expected);
        if (refused.isPresent()) {
            return refused.get();
        }
        ContentLocation location;
        try {
            location = breaker.call(start.breaker(), () -> putCountingTheAttempt(paste, job.content(), expected));
        } catch (CircuitOpenException open) {
            return held(paste, open);
        } catch (RuntimeException e) {
            if (misconfiguredForEveryone(e)) {
                return held(paste, e);
            }
            throw e;
        }
        if (repository.markProcessed(shortCode, location.uri()) == 1) {
            return new StoreResult.Stored(
                    S3Attempt.after(paste.uploadAttempts()), Duration.between(paste.createdAt(), clock.instant()));
        }
        return resolveLostRace(shortCode);
    }

    private ContentLocation putCountingTheAttempt(Paste paste, byte[] content, String sha256) {
        try {
            return contentStore.put(paste.shortCode(), content, sha256);
        } catch (RuntimeException e) {
            if (misconfiguredForEveryone(e)) {
                // Not this paste's attempt: a bucket policy fixed later must leave it all its attempts.
                throw e;
            }
            S3Attempt attempt = S3Attempt.after(paste.uploadAttempts());
            try {
                repository.recordUploadAttempt(paste.shortCode());
            } catch (RuntimeException notCounted) {
                // The database is down too: this attempt goes uncounted; the receive count still bounds them.
                LOG.warn("could not count S3 attempt {} of {}: {}", attempt, paste.shortCode(), notCounted.toString());
            }
            throw new S3AttemptFailedException(attempt, paste.firstHeldAt(), e);
        }
    }

    /** Access denied, no such bucket, a KMS key error: the breaker (when on) opened for everyone on it. */
    private boolean misconfiguredForEveryone(RuntimeException e) {
        return breaker.enabled() && classifier.classify(e).errorClass().misconfiguresStorage();
    }

    /** Held: since the first hold, or from now if this is it (noted with the held message, DeliveryEffects). */
    private StoreResult held(Paste paste, RuntimeException cause) {
        if (paste.firstHeldAt() != null) {
            return new StoreResult.Held(cause, paste.firstHeldAt(), null, false);
        }
        Instant now = clock.instant();
        return new StoreResult.Held(cause, now, now, false);
    }

    /**
     * The guarded update found the row no longer IN_PROGRESS: a concurrent delivery finished it while this
     * one was uploading. PROCESSED: the object is that paste's content (same key, same bytes), keep it.
     * FAILED, or no row (the paste was deleted, revealed, or expired and swept, meanwhile): nothing will ever
     * reference the object (FAILED is terminal, a removed paste never comes back), so remove it rather than
     * leave unreadable content behind.
     */
    private StoreResult resolveLostRace(String shortCode) {
        PasteStatus now = repository.findById(shortCode).map(Paste::status).orElse(null);
        String detail = now == null ? "row was deleted during the upload" : "row went " + now + " during the upload";
        if (now == PasteStatus.PROCESSED) {
            return new StoreResult.LostRace(detail);
        }
        return removeObject(shortCode, detail, now == null ? StoreResult.Removed::new : StoreResult.LostRace::new);
    }

    /**
     * Removes the object of a paste that is gone or FAILED; idempotent (S3 confirms the delete of an absent
     * key). If S3 refuses, the result says so and the job comes back to try again.
     */
    private StoreResult removeObject(String shortCode, String detail, Function<String, StoreResult> removed) {
        try {
            contentStore.deleteAll(List.of(contentStore.locationOf(shortCode)));
        } catch (RuntimeException e) {
            return new StoreResult.RemovalFailed(detail + "; object could not be removed", e);
        }
        return removed.apply(detail + "; object removed");
    }
}
