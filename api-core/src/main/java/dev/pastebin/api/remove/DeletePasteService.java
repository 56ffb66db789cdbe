package dev.pastebin.api.remove;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.STORAGE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.context.annotation.Requires;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Deleting a paste with its token (docs/design.md, "Deleting, expiring and reading once"): the row and its object
 * go together, whatever the paste's state. The row is deleted first and the transaction commits only once S3
 * confirmed the object is gone, so a failure leaves the paste as it was (503, try again), never a row without
 * its object nor an object without its row. An upload finishing meanwhile finds no row to mark PROCESSED and
 * removes the object it wrote itself.
 */
@Singleton
@Requires(classes = S3Client.class) // the functions that read or remove content
public class DeletePasteService {

    private static final Logger LOG = LoggerFactory.getLogger(DeletePasteService.class);

    private final PasteRepository repository;
    private final PasteFileRepository files;
    private final PasteContentStore contentStore;
    private final LargeFileStore largeFiles;
    private final TransactionOperations<Connection> transactions;
    private final DependencyCalls dependencies;
    private final Clock clock = Clock.systemUTC();

    public DeletePasteService(
            PasteRepository repository,
            PasteFileRepository files,
            PasteContentStore contentStore,
            LargeFileStore largeFiles,
            TransactionOperations<Connection> transactions,
            DependencyCalls dependencies) {
        this.repository = repository;
        this.files = files;
        this.contentStore = contentStore;
        this.largeFiles = largeFiles;
        this.transactions = transactions;
        this.dependencies = dependencies;
    }

    /**
     * @throws PasteNotFoundException         for an unknown code, an expired paste or a wrong token alike: a
     *                                        stranger learns nothing about which codes exist
     * @throws DependencyUnavailableException when the database or S3 cannot be reached (nothing was removed)
     */
    public void delete(String shortCode, String token) {
        Paste paste = dependencies
                .call(DATABASE, () -> repository.findById(shortCode))
                .filter(p -> !p.isExpiredAt(clock.instant()))
                .orElseThrow(() -> notFound(shortCode));
        // a large paste's files, staged or verified (docs/design.md, "Large files: straight to S3"); read before the
        // row's removal takes their rows with it
        List<ContentLocation> locations = new ArrayList<>(contentStore.locationsOf(shortCode, paste.s3Location()));
        locations.addAll(largeFiles.locationsOf(
                dependencies.call(DATABASE, () -> files.findByShortCodeOrderByPosition(shortCode)).stream()
                        .map(PasteFile::fileId)
                        .toList()));
        dependencies.run(
                DATABASE,
                () -> transactions.executeWrite(status -> {
                    // the token is checked by the DELETE itself: the create's or any of its replays' (docs/design.md,
                    // "Deleting")
                    if (repository.deleteWithToken(shortCode, DeleteTokens.hashOf(token)) != 1) {
                        throw notFound(shortCode);
                    }
                    dependencies.run(STORAGE, () -> contentStore.deleteAll(locations));
                    return null;
                }));
        LOG.info("paste {} deleted by its owner (was {})", shortCode, paste.status());
    }

    private static PasteNotFoundException notFound(String shortCode) {
        return new PasteNotFoundException("No paste " + shortCode + " with this deletion token");
    }
}
