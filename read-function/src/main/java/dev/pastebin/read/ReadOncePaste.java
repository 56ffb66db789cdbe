package dev.pastebin.read;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.core.paste.Paste;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * What GET and HEAD show of a stored read-once paste instead of its content, so that a link preview cannot burn
 * it: {@code {"shortCode", "status": "PROCESSED", "readOnce": true, "sizeBytes", "expiresAt"}}.
 */
@Serdeable
public record ReadOncePaste(
        String shortCode,
        String status,
        boolean readOnce,
        int sizeBytes,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt) {

    public static ReadOncePaste of(Paste paste) {
        return new ReadOncePaste(
                paste.shortCode(),
                paste.status().name(),
                true,
                paste.sizeBytes(),
                paste.expiresAt() == null ? null : paste.expiresAt().toString());
    }
}
