package dev.pastebin.api.read;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.storage.LargeFileStore;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.net.URL;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Reading a large paste (docs/design.md, "Large files: straight to S3"): its bytes never pass through the function;
 * the read is a short-lived pre-signed GET of the file's final key, with its Content-Type and its name (as an
 * attachment) signed in, which the client is redirected to. Decided after the row's state, as any read is.
 */
@Singleton
@Requires(classes = S3Client.class)
public class LargeFileLinks {

    private final PasteFileRepository files;
    private final LargeFileStore store;
    private final DependencyCalls dependencies;

    public LargeFileLinks(PasteFileRepository files, LargeFileStore store, DependencyCalls dependencies) {
        this.files = files;
        this.store = store;
        this.dependencies = dependencies;
    }

    /** Whether a PROCESSED paste is a large one: its row names the folder of its files, not one object. */
    public boolean isLarge(Paste paste) {
        return store.isFilesLocation(paste.s3Location());
    }

    /**
     * A link to the file at {@code position} of a PROCESSED large paste (pre-signing is local: no S3 call).
     *
     * @throws PasteNotFoundException when the paste has no such file
     */
    public URL link(Paste paste, int position) {
        List<PasteFile> all = files(paste);
        if (position < 0 || position >= all.size()) {
            throw new PasteNotFoundException("Paste " + paste.shortCode() + " has no file " + position);
        }
        PasteFile file = all.get(position);
        return store.presignRead(file.fileId(), file.name(), file.contentType());
    }

    /** The files of a PROCESSED large paste, in the create's order (what its JSON view lists). */
    public List<PasteFile> files(Paste paste) {
        return dependencies.call(DATABASE, () -> files.findByShortCodeOrderByPosition(paste.shortCode()));
    }
}
