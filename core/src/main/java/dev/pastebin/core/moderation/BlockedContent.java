package dev.pastebin.core.moderation;

import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** One entry of {@code content_blocklist}: content (by its SHA-256) that create and the upload worker refuse. */
@MappedEntity("content_blocklist")
public record BlockedContent(
        @Id String sha256,
        String reason,
        String addedBy,
        @GeneratedValue Instant addedAt) {

    public static BlockedContent of(String sha256, String reason, String addedBy) {
        return new BlockedContent(sha256, reason, addedBy, null);
    }
}
