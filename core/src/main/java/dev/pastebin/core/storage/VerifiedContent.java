package dev.pastebin.core.storage;

import static dev.pastebin.core.failure.Dependency.STORAGE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The exact bytes of a PROCESSED paste for a reader (a read or a reveal), fetched from the location recorded
 * on its row and checked against the row's SHA-256.
 */
@Singleton
@Requires(classes = S3Client.class)
public class VerifiedContent {

    private static final Logger LOG = LoggerFactory.getLogger(VerifiedContent.class);

    private final PasteContentStore contentStore;
    private final DependencyCalls dependencies;

    public VerifiedContent(PasteContentStore contentStore, DependencyCalls dependencies) {
        this.contentStore = contentStore;
        this.dependencies = dependencies;
    }

    /**
     * @throws DependencyUnavailableException when S3 cannot be reached or answers 5xx / throttles
     * @throws PasteInconsistencyException    when the object is missing or is not what the row says
     */
    public byte[] of(Paste paste) {
        return ifStored(paste).orElseThrow(() -> {
            LOG.error(
                    "inconsistency: paste {} is PROCESSED but its object {} is missing",
                    paste.shortCode(),
                    paste.s3Location());
            return new PasteInconsistencyException("object missing for " + paste.shortCode());
        });
    }

    /**
     * As {@link #of(Paste)}, but a missing object is empty instead of an inconsistency: for a caller that read
     * the row without a lock, whose paste may have been removed since.
     */
    public Optional<byte[]> ifStored(Paste paste) {
        ContentLocation location = ContentLocation.parse(paste.s3Location()).orElseThrow(() -> {
            LOG.error("inconsistency: paste {} is PROCESSED without a valid s3 location", paste.shortCode());
            return new PasteInconsistencyException("no location for " + paste.shortCode());
        });
        Optional<byte[]> stored = dependencies.call(STORAGE, () -> contentStore.get(location));
        if (stored.isEmpty()) {
            return stored;
        }
        byte[] content = stored.get();
        if (!ContentHash.sha256Hex(content).equals(paste.contentSha256())) {
            LOG.error(
                    "inconsistency: paste {} object {} does not match the row's SHA-256 ({} bytes stored, {} expected)",
                    paste.shortCode(),
                    location,
                    content.length,
                    paste.sizeBytes());
            throw new PasteInconsistencyException("content mismatch for " + paste.shortCode());
        }
        return stored;
    }
}
