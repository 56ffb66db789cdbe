package dev.pastebin.api.read;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteTakenDownException;
import dev.pastebin.core.storage.PasteInconsistencyException;
import dev.pastebin.core.storage.VerifiedContent;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Reading a paste (docs/design.md, "States"): the row decides (PROCESSED, IN_PROGRESS, FAILED/unknown/expired,
 * read-once); only a PROCESSED paste's content is fetched from S3, from the location recorded on its row. A code
 * with no row is looked up among the takedowns' tombstones (a second query on that path only): a paste an operator
 * took down is refused as such (451), not missing (docs/design.md, "Takedowns and the blocklist").
 */
@Singleton
@Requires(classes = S3Client.class) // the functions that read or remove content
public class ReadPasteService {

    private final PasteRepository repository;
    private final TakedownRepository takedowns;
    private final VerifiedContent verifiedContent;
    private final DependencyCalls dependencies;
    private final Clock clock = Clock.systemUTC();

    public ReadPasteService(
            PasteRepository repository,
            TakedownRepository takedowns,
            VerifiedContent verifiedContent,
            DependencyCalls dependencies) {
        this.repository = repository;
        this.takedowns = takedowns;
        this.verifiedContent = verifiedContent;
        this.dependencies = dependencies;
    }

    /**
     * @throws DependencyUnavailableException when the database cannot be reached
     * @throws PasteTakenDownException        when there is no row and an operator took the paste down
     */
    public PasteLookup find(String shortCode) {
        Paste paste = dependencies
                .call(DATABASE, () -> repository.findById(shortCode))
                .orElse(null);
        if (paste == null && dependencies.call(DATABASE, () -> takedowns.existsById(shortCode))) {
            throw new PasteTakenDownException("Paste " + shortCode + " was taken down by the operator");
        }
        if (paste == null || paste.isExpiredAt(clock.instant())) {
            return new PasteLookup.Absent();
        }
        return switch (paste.status()) {
            case PROCESSED -> paste.readOnce() ? new PasteLookup.ReadOnce(paste) : new PasteLookup.Readable(paste);
            case IN_PROGRESS -> new PasteLookup.Pending(paste);
            case FAILED -> new PasteLookup.Absent();
        };
    }

    /**
     * The exact bytes of a PROCESSED paste, checked against the row's hash.
     *
     * @throws DependencyUnavailableException when S3 cannot be reached or answers 5xx / throttles
     * @throws PasteInconsistencyException    when the object is missing or is not what the row says
     */
    public byte[] content(Paste paste) {
        return verifiedContent.of(paste);
    }

    /**
     * As {@link #content(Paste)}, but empty when the object is gone: for a caller racing a reveal or a delete of the
     * paste, which removes the object before its row's removal commits.
     *
     * @throws DependencyUnavailableException when S3 cannot be reached or answers 5xx / throttles
     * @throws PasteInconsistencyException    when the object is not what the row says
     */
    public Optional<byte[]> contentIfStored(Paste paste) {
        return verifiedContent.ifStored(paste);
    }
}
