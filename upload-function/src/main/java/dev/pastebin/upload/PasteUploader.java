package dev.pastebin.upload;

import dev.pastebin.core.failure.IntegrityMismatchException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Optional;

/**
 * Stores one upload job: checks the row and the content's hash, puts the content in S3 and moves the row
 * from IN_PROGRESS to PROCESSED. Every step is idempotent under at-least-once delivery: the object key is the
 * short code, and the transition is a guarded update that only moves an IN_PROGRESS row. A failure is thrown
 * as it is, for {@link AttemptOutcomes} to classify.
 */
@Singleton
class PasteUploader {

    private static final Logger LOG = LoggerFactory.getLogger(PasteUploader.class);

    private final PasteRepository repository;
    private final PasteContentStore contentStore;

    PasteUploader(PasteRepository repository, PasteContentStore contentStore) {
        this.repository = repository;
        this.contentStore = contentStore;
    }

    StoreResult store(UploadJob job) {
        String shortCode = job.shortCode();
        Optional<Paste> row = repository.findById(shortCode);
        if (row.isEmpty()) {
            // The create function inserts the row before it sends the job.
            return new StoreResult.NoRow();
        }
        Paste paste = row.get();
        if (paste.status() != PasteStatus.IN_PROGRESS) {
            return new StoreResult.AlreadyTerminal(paste.status());
        }
        String expected = paste.contentSha256().trim().toLowerCase(Locale.ROOT);
        String actual = ContentHash.sha256Hex(job.content());
        if (!actual.equals(expected)) {
            throw new IntegrityMismatchException("content hashes to " + actual + " but the paste row has " + paste.contentSha256());
        }
        ContentLocation location = contentStore.put(shortCode, job.content(), expected);
        if (repository.markProcessed(shortCode, location.uri()) == 1) {
            return new StoreResult.Stored();
        }
        return resolveLostRace(shortCode);
    }

    /**
     * The guarded update found the row no longer IN_PROGRESS: a concurrent delivery finished it while this
     * one was uploading. PROCESSED: the object is that paste's content (same key, same bytes), keep it.
     * FAILED: nothing will ever reference the object (FAILED is terminal and the read path answers 404),
     * so remove it rather than leave unreadable content behind.
     */
    private StoreResult resolveLostRace(String shortCode) {
        PasteStatus now = repository.findById(shortCode).map(Paste::status).orElse(null);
        String detail = "row went " + now + " during the upload";
        if (now == PasteStatus.PROCESSED) {
            return new StoreResult.LostRace(detail);
        }
        try {
            contentStore.delete(shortCode);
            return new StoreResult.LostRace(detail + "; object removed");
        } catch (RuntimeException e) {
            LOG.warn("orphan object for {} ({}) could not be removed", shortCode, now, e);
            return new StoreResult.LostRace(detail + "; object could not be removed: " + e.getMessage());
        }
    }
}
