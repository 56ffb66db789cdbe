package dev.pastebin.remove;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.api.remove.Reveal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * The answer to the reveal of a read-once large paste (docs/design.md, "Reading once"): its metadata and its files,
 * each with {@code url}, a pre-signed GET of its bytes valid until {@code linksExpireAt}. The only links there will
 * ever be: the paste answers 404 from now on, and its files are deleted once they have expired.
 */
@Serdeable
public record RevealedFilesDocument(
        String shortCode,
        String status,
        int sizeBytes,
        String createdAt,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
        boolean readOnce,
        String linksExpireAt,
        List<RevealedFileLink> files) {

    /** One file, in the create's order, and its link. */
    @Serdeable
    public record RevealedFileLink(String name, long sizeBytes, String contentType, String sha256, String url) {}

    static RevealedFilesDocument of(Reveal.RevealedFiles revealed) {
        var paste = revealed.paste();
        return new RevealedFilesDocument(
                paste.shortCode(),
                paste.status().name(),
                paste.sizeBytes(),
                String.valueOf(paste.createdAt()),
                paste.expiresAt() == null ? null : paste.expiresAt().toString(),
                true,
                revealed.linksExpireAt().toString(),
                revealed.files().stream()
                        .map(f -> new RevealedFileLink(
                                f.file().name(),
                                f.file().sizeBytes(),
                                f.file().contentType(),
                                f.file().sha256(),
                                f.link().toString()))
                        .toList());
    }
}
