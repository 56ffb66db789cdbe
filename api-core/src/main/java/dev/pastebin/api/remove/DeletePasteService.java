package dev.pastebin.api.remove;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.STORAGE;

import dev.pastebin.core.access.Owner;
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
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Deleting a paste with its token, or one's own with one's credential (docs/design.md, "Deleting, expiring and
 * reading once", "Ownership"): the row and its object
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
        // the token is checked by the DELETE itself: the create's or any of its replays' (docs/design.md, "Deleting")
        Paste paste = remove(
                shortCode,
                connection -> repository.deleteWithToken(shortCode, DeleteTokens.hashOf(token)),
                "with this deletion token");
        LOG.info("paste {} deleted by its owner (was {})", shortCode, paste.status());
    }

    /**
     * Deletes one of {@code owner}'s pastes (docs/design.md, "Ownership"), no deletion token needed: the same removal
     * as {@link #delete(String, String)}, the row's owner checked by its DELETE.
     *
     * @throws PasteNotFoundException         for an unknown code, an expired paste or another's (or an anonymous)
     *                                        paste alike: an owner learns nothing about others' pastes
     * @throws DependencyUnavailableException when the database or S3 cannot be reached (nothing was removed)
     */
    public void deleteOwned(String shortCode, Owner owner) {
        Paste paste = remove(shortCode, connection -> deleteOwnedRow(connection, shortCode, owner), "of yours");
        LOG.info("paste {} deleted by its owner, {} (was {})", shortCode, owner, paste.status());
    }

    /** Removes the row, if {@code deleteRow} removes it, and then its objects, in one transaction. */
    private Paste remove(String shortCode, RowDelete deleteRow, String whose) {
        Paste paste = dependencies
                .call(DATABASE, () -> repository.findById(shortCode))
                .filter(p -> !p.isExpiredAt(clock.instant()))
                .orElseThrow(() -> notFound(shortCode, whose));
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
                    if (deleteRow.delete(status.getConnection()) != 1) {
                        throw notFound(shortCode, whose);
                    }
                    dependencies.run(STORAGE, () -> contentStore.deleteAll(locations));
                    return null;
                }));
        return paste;
    }

    /** The DELETE of one row that answers how many it removed (0 or 1), on the transaction's connection. */
    @FunctionalInterface
    private interface RowDelete {
        int delete(Connection connection);
    }

    /** The owner's column named by the owner's kind alone, never by anything a client sent. */
    static String deleteOwnedStatement(Owner owner) {
        return "DELETE FROM pastes WHERE short_code = ? AND "
                + switch (owner) {
                    case Owner.ApiKey key -> "owner_key_id";
                    case Owner.Subject subject -> "user_id";
                }
                + " = ?";
    }

    private static int deleteOwnedRow(Connection connection, String shortCode, Owner owner) {
        try (PreparedStatement delete = connection.prepareStatement(deleteOwnedStatement(owner))) {
            delete.setString(1, shortCode);
            switch (owner) {
                case Owner.ApiKey key -> delete.setObject(2, key.keyId());
                case Owner.Subject subject -> delete.setString(2, subject.sub());
            }
            return delete.executeUpdate();
        } catch (SQLException e) {
            // classified like any database failure: the classifier finds the SQLSTATE in the cause
            throw new DataAccessException("Deleting an owned paste failed: " + e.getMessage(), e);
        }
    }

    private static PasteNotFoundException notFound(String shortCode, String whose) {
        return new PasteNotFoundException("No paste " + shortCode + " " + whose);
    }
}
