package dev.pastebin.moderation;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * What a moderation command did, printed by {@code infra/admin}. Only the fields that apply to the action are
 * present; {@code error} alone when the command was refused.
 *
 * @param outcome        what happened: taken-down, already-taken-down, nothing-to-take-down, blocked,
 *                       already-blocked, unblocked, not-blocked, listed, or refused (with {@code error})
 * @param rowRemoved     whether the takedown removed a paste row
 * @param objectDeleted  whether the takedown's delete of the content's object was confirmed by S3
 * @param invalidation   the reference of the edge invalidation sent to the outbox
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModerationAnswer(
        String outcome,
        @Nullable String code,
        @Nullable Boolean rowRemoved,
        @Nullable String stateRemoved,
        @Nullable Boolean objectDeleted,
        @Nullable String sha256,
        @Nullable Integer size,
        @Nullable Boolean blocked,
        @Nullable String invalidation,
        @Nullable List<String> paths,
        @Nullable List<Entry> entries,
        @Nullable String error) {

    /** One blocklist entry, for {@code blocklist}. */
    @Serdeable
    public record Entry(String sha256, String reason, String addedBy, String addedAt) {}

    static ModerationAnswer refused(String error) {
        return new ModerationAnswer("refused", null, null, null, null, null, null, null, null, null, null, error);
    }

    static ModerationAnswer onHash(String outcome, String sha256) {
        return new ModerationAnswer(outcome, null, null, null, null, sha256, null, null, null, null, null, null);
    }
}
