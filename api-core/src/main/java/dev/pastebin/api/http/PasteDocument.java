package dev.pastebin.api.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.core.paste.Paste;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.nio.charset.StandardCharsets;

/**
 * The JSON view of a paste's content ({@code Accept: application/json}), from a read or a reveal: metadata and
 * the content as a string. {@code expiresAt}, {@code language} and {@code fileName} are always present, {@code null}
 * when the paste does not expire or was not labelled.
 */
@Serdeable
public record PasteDocument(
        String shortCode,
        String status,
        int sizeBytes,
        String contentSha256,
        String createdAt,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
        boolean readOnce,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String language,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String fileName,
        String content) {

    /** {@code content} is the paste's verified bytes (UTF-8 by construction). */
    public static PasteDocument of(Paste paste, byte[] content) {
        return new PasteDocument(
                paste.shortCode(),
                paste.status().name(),
                paste.sizeBytes(),
                paste.contentSha256(),
                String.valueOf(paste.createdAt()),
                paste.expiresAt() == null ? null : paste.expiresAt().toString(),
                paste.readOnce(),
                paste.language(),
                paste.fileName(),
                new String(content, StandardCharsets.UTF_8));
    }
}
