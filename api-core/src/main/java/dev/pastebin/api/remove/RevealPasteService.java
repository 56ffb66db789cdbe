package dev.pastebin.api.remove;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.STORAGE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.NotReadOnceException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.PasteTakenDownException;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.storage.PasteInconsistencyException;
import dev.pastebin.core.storage.VerifiedContent;
import io.micronaut.context.annotation.Requires;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Burn after reading (docs/design.md, "Reading once"). The content is read and verified from S3 first, without
 * a lock; then one short transaction locks the row, checks it is still the paste that was read, deletes it,
 * deletes the object and commits. Concurrent reveals queue on the row lock only for that DeleteObjects, and
 * every one after the first finds no row: exactly one caller gets the content. If anything fails before the
 * commit (S3 unreachable, a content mismatch, the database), the transaction rolls back and the paste stays
 * readable once: the reader is told 503/500, and nothing was burnt.
 *
 * <p>A large paste's files never pass through the function: its reveal burns the row in one short transaction (it
 * expires now: 404 everywhere from the commit on) and answers a short-lived pre-signed GET of each file; the sweeper
 * deletes the row and its files once those links have expired (docs/design.md, "Reading once").
 */
@Singleton
@Requires(classes = S3Client.class) // the functions that read or remove content
public class RevealPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(RevealPasteService.class);

    private final PasteRepository repository;
    private final TakedownRepository takedowns;
    private final VerifiedContent verifiedContent;
    private final PasteContentStore contentStore;
    private final TransactionOperations<Connection> transactions;
    private final DependencyCalls dependencies;
    private final LargeFileStore largeFiles;
    private final PasteFileRepository files;
    private final Clock clock = Clock.systemUTC();

    public RevealPasteService(
            PasteRepository repository,
            TakedownRepository takedowns,
            VerifiedContent verifiedContent,
            PasteContentStore contentStore,
            TransactionOperations<Connection> transactions,
            DependencyCalls dependencies,
            LargeFileStore largeFiles,
            PasteFileRepository files) {
        this.repository = repository;
        this.takedowns = takedowns;
        this.verifiedContent = verifiedContent;
        this.contentStore = contentStore;
        this.transactions = transactions;
        this.dependencies = dependencies;
        this.largeFiles = largeFiles;
        this.files = files;
    }

    /**
     * @throws PasteNotFoundException         when there is no readable paste (unknown, FAILED, expired, already
     *                                        revealed or deleted)
     * @throws PasteTakenDownException        when there is no row and an operator took the paste down
     * @throws NotReadOnceException           for a paste that is read with GET
     * @throws DependencyUnavailableException when the database or S3 cannot be reached (the paste is kept)
     * @throws PasteInconsistencyException    when the object is missing or not what the row says (the paste is kept)
     */
    public Reveal reveal(String shortCode) {
        Optional<Paste> row = dependencies.call(DATABASE, () -> repository.findById(shortCode));
        if (row.isEmpty() && dependencies.call(DATABASE, () -> takedowns.existsById(shortCode))) {
            throw new PasteTakenDownException("Paste " + shortCode + " was taken down by the operator");
        }
        Paste paste = readable(row, shortCode);
        if (!paste.readOnce()) {
            throw new NotReadOnceException(
                    "Paste " + shortCode + " is not read-once: read it with GET /pastes/" + shortCode);
        }
        if (paste.status() == PasteStatus.IN_PROGRESS) {
            return new Reveal.Pending(paste);
        }
        if (largeFiles.isFilesLocation(paste.s3Location())) {
            return burnLarge(paste);
        }
        byte[] content = verifiedContent.ifStored(paste).orElseGet(() -> {
            // A concurrent reveal (or delete) removed it since the row was read. Its row delete may not be
            // committed yet (the object goes first, inside that transaction): wait for the row's lock, so that
            // only a row still there after it means the object is really missing, an inconsistency.
            readable(
                    dependencies.call(
                            DATABASE,
                            () -> transactions.executeWrite(status -> repository.findByIdForUpdate(shortCode))),
                    shortCode);
            return verifiedContent.of(paste);
        });
        dependencies.run(
                DATABASE,
                () -> transactions.executeWrite(status -> {
                    lockStillTheOneRead(paste);
                    repository.remove(shortCode);
                    // before the commit: if S3 refuses, the row comes back and the paste can still be revealed
                    dependencies.run(
                            STORAGE,
                            () -> contentStore.deleteAll(contentStore.locationsOf(shortCode, paste.s3Location())));
                    return null;
                }));
        LOG.info("read-once paste {} revealed and removed", shortCode);
        return new Reveal.Revealed(paste, content);
    }

    /**
     * Burns a read-once large paste and links its files: the row locked, checked to be the paste that was read, and
     * burnt in one transaction, its files read in it; concurrent reveals queue on the lock and the later ones find it
     * expired. Signing the links is local (no S3 call), so nothing can fail after the commit but the answer's
     * delivery.
     */
    private Reveal burnLarge(Paste paste) {
        String shortCode = paste.shortCode();
        List<PasteFile> burnt = dependencies.call(
                DATABASE,
                () -> transactions.executeWrite(status -> {
                    lockStillTheOneRead(paste);
                    if (repository.burn(shortCode) != 1) {
                        throw new PasteNotFoundException("No paste " + shortCode);
                    }
                    return files.findByShortCodeOrderByPosition(shortCode);
                }));
        Instant linksExpireAt = clock.instant().plus(largeFiles.properties().readLinkValidity());
        List<Reveal.RevealedFile> links = burnt.stream()
                .map(file -> new Reveal.RevealedFile(
                        file, largeFiles.presignRead(file.fileId(), file.name(), file.contentType())))
                .toList();
        LOG.info(
                "read-once large paste {} revealed: {} links handed out, its files go once they expire",
                shortCode,
                links.size());
        return new Reveal.RevealedFiles(paste, links, linksExpireAt);
    }

    /**
     * Locks the paste's row, inside the caller's transaction, and checks it is still the content that was read: not
     * revealed (or deleted) by another caller meanwhile; 404 otherwise.
     */
    private void lockStillTheOneRead(Paste paste) {
        readable(
                repository
                        .findByIdForUpdate(paste.shortCode())
                        .filter(locked -> locked.status() == PasteStatus.PROCESSED
                                && Objects.equals(locked.contentSha256(), paste.contentSha256())
                                && Objects.equals(locked.s3Location(), paste.s3Location())),
                paste.shortCode());
    }

    private Paste readable(Optional<Paste> row, String shortCode) {
        return row.filter(p -> p.status() != PasteStatus.FAILED && !p.isExpiredAt(clock.instant()))
                .orElseThrow(() -> new PasteNotFoundException("No paste " + shortCode));
    }
}
