package dev.pastebin.read;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * The JSON view of a large paste (docs/design.md, "Large files: straight to S3"): its metadata and its files, each
 * with the address of its read ({@code /pastes/<code>?file=<n>}, a redirect to its bytes), so that a client (the
 * web page) can list them without downloading any. {@code sizeBytes} is the files' total.
 */
@Serdeable
public record LargePasteDocument(
        String shortCode,
        String status,
        int sizeBytes,
        String createdAt,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
        List<LargePasteFile> files) {

    /** One file, in the create's order: its position is its index in {@code files}. */
    @Serdeable
    public record LargePasteFile(String name, long sizeBytes, String contentType, String sha256, String url) {}

    static LargePasteDocument of(Paste paste, List<PasteFile> files) {
        String read = "/pastes/" + paste.shortCode() + "?" + PasteAnswers.FILE_PARAMETER + "=";
        return new LargePasteDocument(
                paste.shortCode(),
                paste.status().name(),
                paste.sizeBytes(),
                String.valueOf(paste.createdAt()),
                paste.expiresAt() == null ? null : paste.expiresAt().toString(),
                files.stream()
                        .map(file -> new LargePasteFile(
                                file.name(),
                                file.sizeBytes(),
                                file.contentType(),
                                file.sha256(),
                                read + file.position()))
                        .toList());
    }
}
