package dev.pastebin.core.moderation;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.AutoPopulated;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code moderation_audit}: an operator action (or the upload worker's refusal), who took it as the
 * invoker stated it, why, and on what: a code and/or a content hash, with the content's size when known, and a taken
 * down paste's owner. Never the content, nor a credential.
 *
 * @param action one of {@link ModerationAction}'s labels
 * @param owner  a takedown's paste's owner ({@code api-key:<id>} or {@code subject:<sub>}); null when anonymous
 */
@MappedEntity("moderation_audit")
public record AuditEntry(
        @Id @AutoPopulated @Nullable UUID id,
        String action,
        String actor,
        @GeneratedValue @Nullable Instant actedAt,
        String reason,
        @Nullable String shortCode,
        @Nullable String contentSha256,
        @Nullable Integer contentSize,
        @Nullable String owner) {

    public static AuditEntry of(
            ModerationAction action,
            String actor,
            String reason,
            @Nullable String shortCode,
            @Nullable String contentSha256,
            @Nullable Integer contentSize) {
        return new AuditEntry(null, action.label(), actor, null, reason, shortCode, contentSha256, contentSize, null);
    }

    /** A takedown's entry, naming the paste's owner (as the moderation function reads it from the row), if it has one. */
    public static AuditEntry takedown(
            String actor,
            String reason,
            String shortCode,
            String contentSha256,
            int contentSize,
            @Nullable String owner) {
        return new AuditEntry(
                null,
                ModerationAction.TAKEDOWN.label(),
                actor,
                null,
                reason,
                shortCode,
                contentSha256,
                contentSize,
                owner);
    }
}
