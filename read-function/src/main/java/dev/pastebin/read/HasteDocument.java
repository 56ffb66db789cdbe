package dev.pastebin.read;

import dev.pastebin.core.paste.Paste;
import io.micronaut.serde.annotation.Serdeable;
import java.nio.charset.StandardCharsets;

/** A stored paste as the haste protocol's {@code GET /documents/{key}} answers it: {@code {"key", "data"}}. */
@Serdeable
public record HasteDocument(String key, String data) {

    /** {@code content} is the paste's verified bytes (UTF-8 by construction). */
    public static HasteDocument of(Paste paste, byte[] content) {
        return new HasteDocument(paste.shortCode(), new String(content, StandardCharsets.UTF_8));
    }
}
