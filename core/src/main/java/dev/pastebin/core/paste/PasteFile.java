package dev.pastebin.core.paste;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * One file of a large paste (docs/design.md, "Large files: straight to S3"): what its create declared (name, size,
 * SHA-256, content type) and whether the upload worker has verified its bytes and moved them to their final key.
 * {@code fileId} ({@code <shortCode>/<position>}) is its key under the staging and the final prefix alike.
 */
@MappedEntity("paste_files")
public record PasteFile(
        @Id String fileId,
        String shortCode,
        short position,
        String name,
        long sizeBytes,
        String sha256,
        String contentType,
        String state,
        @Nullable Instant verifiedAt) {

    public static final String STAGED = "STAGED";
    public static final String VERIFIED = "VERIFIED";

    /**
     * The SHA-256 of a file whose client could not declare it ({@code curl -T}): 64 zeros, which no content hashes
     * to, until the upload worker records the SHA-256 of what arrived.
     */
    public static final String UNDECLARED_SHA256 = "0".repeat(64);

    /** The id of the file at {@code position} of the paste {@code shortCode}. */
    public static String idOf(String shortCode, int position) {
        return shortCode + "/" + position;
    }

    /**
     * The short code of the paste the file {@code fileId} is of: what precedes its {@code /}, empty for an id without
     * one (a key under the staging prefix no create signed, which no paste has).
     */
    public static String shortCodeOf(String fileId) {
        return fileId.substring(0, Math.max(0, fileId.indexOf('/')));
    }

    /** A declared file as the create inserts it: staged, its bytes still to come. */
    public static PasteFile staged(
            String shortCode, int position, String name, long sizeBytes, String sha256, String contentType) {
        return new PasteFile(
                idOf(shortCode, position),
                shortCode,
                (short) position,
                name,
                sizeBytes,
                sha256,
                contentType,
                STAGED,
                null);
    }

    /** Whether the create declared no SHA-256, so that the bytes that arrive define it. */
    public boolean sha256Undeclared() {
        return UNDECLARED_SHA256.equals(sha256);
    }

    public boolean verified() {
        return VERIFIED.equals(state);
    }
}
