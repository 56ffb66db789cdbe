package dev.pastebin.upload;

import dev.pastebin.core.breaker.CircuitOpenException;
import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.failure.IntegrityMismatchException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.LargeFileStore;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies one file of a large paste that S3 says has arrived in the staging prefix (docs/design.md, "Large files:
 * straight to S3"): its size and SHA-256 against what the create declared, the blocklist, then its move to its final
 * key (copy, then delete of the staged object), the file marked VERIFIED and, when it was the paste's last, the paste
 * PROCESSED. Every S3 call goes through the shared breaker and a failed one is counted as the paste's S3 attempt, as
 * {@link PasteUploader}'s PUT is, so the retry schedule, holds and failure classification apply unchanged; a mismatch
 * is an {@link IntegrityMismatchException}, which fails the paste with the reason. Each step is idempotent under
 * redelivery: a verified file, or a staged object already moved, is acknowledged.
 */
@Singleton
class StagedFileVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(StagedFileVerifier.class);

    private final PasteRepository pastes;
    private final PasteFileRepository files;
    private final LargeFileStore store;
    private final S3CircuitBreaker breaker;
    private final FailureClassifier classifier;
    private final BlockedContentRefusal blockedContent;
    private final Clock clock;

    @Inject
    StagedFileVerifier(
            PasteRepository pastes,
            PasteFileRepository files,
            LargeFileStore store,
            S3CircuitBreaker breaker,
            FailureClassifier classifier,
            BlockedContentRefusal blockedContent) {
        this(pastes, files, store, breaker, classifier, blockedContent, Clock.systemUTC());
    }

    StagedFileVerifier(
            PasteRepository pastes,
            PasteFileRepository files,
            LargeFileStore store,
            S3CircuitBreaker breaker,
            FailureClassifier classifier,
            BlockedContentRefusal blockedContent,
            Clock clock) {
        this.pastes = pastes;
        this.files = files;
        this.store = store;
        this.breaker = breaker;
        this.classifier = classifier;
        this.blockedContent = blockedContent;
        this.clock = clock;
    }

    /** The file an S3 notification's object is, or empty when it is no staged file of the paste bucket. */
    Optional<String> fileIdOf(String bucket, String key) {
        return store.fileIdOfStagingKey(bucket, key);
    }

    StoreResult verify(String fileId) {
        Optional<PasteFile> row = files.findById(fileId);
        if (row.isEmpty()) {
            // its paste was removed (the file rows go with it), or the key was never a declared file's
            return removeStaged(fileId, "no file row: the paste was removed", StoreResult.Removed::new);
        }
        PasteFile file = row.get();
        Paste paste = pastes.findById(file.shortCode()).orElse(null);
        if (paste == null) {
            return removeStaged(fileId, "no paste row: the paste was removed", StoreResult.Removed::new);
        }
        if (paste.status() == PasteStatus.FAILED) {
            return removeStaged(fileId, "row is already FAILED", StoreResult.AlreadyTerminal::new);
        }
        if (paste.status() != PasteStatus.IN_PROGRESS) {
            return new StoreResult.AlreadyTerminal("row is already " + paste.status());
        }
        if (file.verified()) {
            return completeIfLast(paste, file, "file " + fileId + " was already verified");
        }
        try {
            Optional<LargeFileStore.StagedObject> staged = s3(paste, () -> store.headStaged(fileId));
            if (staged.isEmpty()) {
                if (s3(paste, () -> store.finalExists(fileId))) {
                    // moved by an earlier delivery whose update of the row was lost
                    files.markVerified(fileId);
                    return completeIfLast(paste, file, "file " + fileId + " was already moved");
                }
                return new StoreResult.AlreadyTerminal("no staged object for " + fileId + ": nothing to verify");
            }
            String sha256 = check(file, staged.get(), paste);
            Optional<StoreResult> refused = blockedContent.refuseIfBlocked(paste, sha256);
            if (refused.isPresent()) {
                s3(paste, () -> {
                    store.deleteStaged(fileId);
                    return null;
                });
                return refused.get();
            }
            s3(paste, () -> {
                store.copyToFinal(fileId);
                return null;
            });
            s3(paste, () -> {
                store.deleteStaged(fileId);
                return null;
            });
        } catch (CircuitOpenException open) {
            return held(paste, open);
        } catch (S3AttemptFailedException e) {
            throw e;
        } catch (RuntimeException e) {
            if (misconfiguredForEveryone(e)) {
                return held(paste, e);
            }
            throw e;
        }
        files.markVerified(fileId);
        LOG.info("file {} of paste {} verified and moved", fileId, paste.shortCode());
        return completeIfLast(paste, file, null);
    }

    /**
     * The staged object's size and SHA-256 against the declaration; the SHA-256 is S3's, computed on the PUT the
     * create signed with the declared one. A file whose create declared no SHA-256 ({@code curl -T}) has only its
     * size checked, and the SHA-256 of what arrived recorded. Returns the file's SHA-256 (for the blocklist).
     */
    private String check(PasteFile file, LargeFileStore.StagedObject staged, Paste paste) {
        if (staged.sizeBytes() != file.sizeBytes()) {
            throw new IntegrityMismatchException("file " + file.fileId() + " arrived with " + staged.sizeBytes()
                    + " bytes but " + file.sizeBytes() + " were declared");
        }
        String actual = staged.sha256Hex() != null
                ? staged.sha256Hex()
                // stored without a SHA-256 (not through the signed PUT): hash what S3 holds
                : s3(paste, () -> store.stagedSha256(file.fileId()));
        if (file.sha256Undeclared()) {
            // a curl -T upload, which cannot declare it: the bytes that arrived define it, and the blocklist is
            // checked against it next
            files.recordUndeclaredSha256(file.fileId(), actual);
            return actual;
        }
        if (!actual.equals(file.sha256())) {
            throw new IntegrityMismatchException(
                    "file " + file.fileId() + " hashes to " + actual + " but " + file.sha256() + " was declared");
        }
        return actual;
    }

    /** The paste PROCESSED when this was its last unverified file; a success of this delivery either way. */
    private StoreResult completeIfLast(Paste paste, PasteFile file, String alreadyDone) {
        if (files.countUnverified(paste.shortCode()) > 0) {
            return alreadyDone != null
                    ? new StoreResult.AlreadyTerminal(alreadyDone + "; other files still to come")
                    : stored(paste);
        }
        if (pastes.markProcessed(
                        paste.shortCode(),
                        store.filesLocationOf(paste.shortCode()).uri())
                == 1) {
            LOG.info("large paste {} PROCESSED: every file verified (the last: {})", paste.shortCode(), file.fileId());
            return stored(paste);
        }
        return new StoreResult.AlreadyTerminal("row left IN_PROGRESS meanwhile");
    }

    private StoreResult stored(Paste paste) {
        return new StoreResult.Stored(
                S3Attempt.after(paste.uploadAttempts()), Duration.between(paste.createdAt(), clock.instant()));
    }

    /** One S3 call through the breaker; a failure is counted as the paste's attempt (unless S3 fails everyone). */
    private <T> T s3(Paste paste, Supplier<T> call) {
        return breaker.call(() -> {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (misconfiguredForEveryone(e)) {
                    throw e;
                }
                S3Attempt attempt = S3Attempt.after(paste.uploadAttempts());
                try {
                    pastes.recordUploadAttempt(paste.shortCode());
                } catch (RuntimeException notCounted) {
                    LOG.warn(
                            "could not count S3 attempt {} of {}: {}",
                            attempt,
                            paste.shortCode(),
                            notCounted.toString());
                }
                throw new S3AttemptFailedException(attempt, paste.firstHeldAt(), e);
            }
        });
    }

    private boolean misconfiguredForEveryone(RuntimeException e) {
        return breaker.enabled() && classifier.classify(e).errorClass().misconfiguresStorage();
    }

    private StoreResult held(Paste paste, RuntimeException cause) {
        if (paste.firstHeldAt() != null) {
            return new StoreResult.Held(cause, paste.firstHeldAt(), null, false);
        }
        Instant now = clock.instant();
        return new StoreResult.Held(cause, now, now, false);
    }

    private StoreResult removeStaged(
            String fileId, String detail, java.util.function.Function<String, StoreResult> removed) {
        try {
            store.deleteStaged(fileId);
        } catch (RuntimeException e) {
            return new StoreResult.RemovalFailed(detail + "; staged object could not be removed", e);
        }
        return removed.apply(detail + "; staged object removed");
    }
}
