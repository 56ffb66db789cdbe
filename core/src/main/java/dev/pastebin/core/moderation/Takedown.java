package dev.pastebin.core.moderation;

import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * One row of {@code takedowns}: the tombstone of a paste removed by an operator (or refused by the upload worker
 * for blocklisted content). The read routes answer 451 for its code while it is kept; it holds the content's hash
 * and size, never the content.
 */
@MappedEntity("takedowns")
public record Takedown(
        @Id String shortCode,
        String reason,
        String requestedBy,
        @GeneratedValue Instant takenDownAt,
        String contentSha256,
        int contentSize) {

    public static Takedown of(String shortCode, String reason, String requestedBy, String sha256, int size) {
        return new Takedown(shortCode, reason, requestedBy, null, sha256, size);
    }
}
