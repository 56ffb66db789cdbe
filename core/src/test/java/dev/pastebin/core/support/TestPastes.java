package dev.pastebin.core.support;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteMetadata;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/** Rows as tests set them up: IN_PROGRESS, with only what a test cares about, the rest as a plain create leaves it. */
public final class TestPastes {

    private TestPastes() {}

    /** Without a deletion token, expiry, read-once or labels (as pastes from before them are). */
    public static Paste inProgress(String shortCode, @Nullable String userId, String contentSha256, int sizeBytes) {
        return Paste.inProgress(shortCode, userId, contentSha256, sizeBytes, null, null, false, PasteMetadata.NONE);
    }

    /** Without labels. */
    public static Paste inProgress(
            String shortCode,
            @Nullable String userId,
            String contentSha256,
            int sizeBytes,
            @Nullable String deleteTokenSha256,
            @Nullable Instant expiresAt,
            boolean readOnce) {
        return Paste.inProgress(
                shortCode,
                userId,
                contentSha256,
                sizeBytes,
                deleteTokenSha256,
                expiresAt,
                readOnce,
                PasteMetadata.NONE);
    }
}
