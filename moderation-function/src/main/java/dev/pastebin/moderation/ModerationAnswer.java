package dev.pastebin.moderation;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Creator;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * What a moderation command did, printed by {@code infra/admin}. Only the fields that apply to the action are
 * present; {@code error} alone when the command was refused.
 *
 * @param outcome        what happened: taken-down, already-taken-down, nothing-to-take-down, blocked,
 *                       already-blocked, unblocked, not-blocked, listed, copies (the codes holding a content),
 *                       unknown-code (copies of a code with neither a paste nor a tombstone), key-created,
 *                       keys (listed), revoked, already-revoked, or refused (with {@code error})
 * @param rowRemoved     whether the takedown removed a paste row
 * @param objectDeletion what became of the content's objects (the code's and its copies') once the takedown had
 *                       committed, the worst of them (a repeated takedown tries the code's again): {@value #DELETED} (S3 confirmed the delete), {@value #PENDING} (S3 refused it;
 *                       the moderation outbox deletes it, retried until S3 accepts) or {@value #FAILED} (S3 refused
 *                       it and the outbox could not take it either: repeating the command retries it)
 * @param invalidation   the reference of the edge invalidation sent to the outbox; absent when it could not be sent
 *                       (then {@code note} says so, and repeating the command sends it)
 * @param copies         a takedown: the other codes holding the same content that it took down too; block and
 *                       copies: the codes holding the content (block leaves them readable)
 * @param copiesLeft     a takedown of this code alone (onlyThisCode, or block false): the other codes holding the
 *                       same content, left readable
 * @param copiesTruncated true when more codes hold the content than a command handles at once
 *                       ({@value ModerationService#MAX_COPIES}): the lists hold the first of them
 * @param entries        blocklist: one page of its entries, in the order of their hashes
 * @param nextAfter      blocklist: present when more entries follow this page; the next page is the command again
 *                       with this as {@code after}
 * @param note           in words, what the takedown could not finish and what to do about it, or what a repeated
 *                       takedown did
 * @param apiKey         create-key: the key, with the key itself (shown this once), and revoke-key: the key revoked
 * @param apiKeys        list-keys: every key, never the key itself or its hash
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModerationAnswer(
        String outcome,
        @Nullable String code,
        @Nullable Boolean rowRemoved,
        @Nullable String stateRemoved,
        @Nullable String objectDeletion,
        @Nullable String sha256,
        @Nullable Integer size,
        @Nullable Boolean blocked,
        @Nullable String invalidation,
        @Nullable List<String> paths,
        @Nullable List<String> copies,
        @Nullable List<String> copiesLeft,
        @Nullable Boolean copiesTruncated,
        @Nullable List<Entry> entries,
        @Nullable String nextAfter,
        @Nullable String note,
        @Nullable String error,
        @Nullable KeyEntry apiKey,
        @Nullable List<KeyEntry> apiKeys) {

    @Creator
    public ModerationAnswer {}

    /** An answer of a moderation command (none of the keys' fields). */
    public ModerationAnswer(
            String outcome,
            @Nullable String code,
            @Nullable Boolean rowRemoved,
            @Nullable String stateRemoved,
            @Nullable String objectDeletion,
            @Nullable String sha256,
            @Nullable Integer size,
            @Nullable Boolean blocked,
            @Nullable String invalidation,
            @Nullable List<String> paths,
            @Nullable List<String> copies,
            @Nullable List<String> copiesLeft,
            @Nullable Boolean copiesTruncated,
            @Nullable List<Entry> entries,
            @Nullable String nextAfter,
            @Nullable String note,
            @Nullable String error) {
        this(
                outcome,
                code,
                rowRemoved,
                stateRemoved,
                objectDeletion,
                sha256,
                size,
                blocked,
                invalidation,
                paths,
                copies,
                copiesLeft,
                copiesTruncated,
                entries,
                nextAfter,
                note,
                error,
                null,
                null);
    }

    /** {@link #objectDeletion}: S3 confirmed the delete. */
    public static final String DELETED = "deleted";
    /** {@link #objectDeletion}: S3 refused; the moderation outbox deletes the object. */
    public static final String PENDING = "pending";
    /** {@link #objectDeletion}: S3 refused and the outbox could not take the delete; repeat the command. */
    public static final String FAILED = "failed";

    /** One blocklist entry, for {@code blocklist}. */
    @Serdeable
    public record Entry(String sha256, String reason, String addedBy, String addedAt) {}

    /**
     * One API key as the keys commands show it. Null limits are unlimited; {@code key} is present only in
     * create-key's answer (it is never stored, so no later command can show it), and the key's hash never.
     *
     * @param pastesToday what the key created in the current UTC day, counted against {@code dailyPastes}
     * @param bytesToday  the content bytes of those pastes, counted against {@code dailyBytes}
     * @param pastes      how many of the pastes created with the key exist now (deleted and expired ones are gone)
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record KeyEntry(
            String id,
            String name,
            @Nullable String key,
            String createdAt,
            @Nullable String revokedAt,
            @Nullable Long dailyPastes,
            @Nullable Long dailyBytes,
            @Nullable Long pastesToday,
            @Nullable Long bytesToday,
            @Nullable Long pastes) {}

    /** A keys command's answer: its outcome, the key it acted on or the keys it listed, and a note. */
    static ModerationAnswer onKeys(
            String outcome, @Nullable KeyEntry apiKey, @Nullable List<KeyEntry> apiKeys, @Nullable String note) {
        return new ModerationAnswer(
                outcome, null, null, null, null, null, null, null, null, null, null, null, null, null, null, note, null,
                apiKey, apiKeys);
    }

    /** An answer about a code that names nothing to act on: its outcome and, in words, why. */
    static ModerationAnswer onCode(String outcome, String code, String note) {
        return new ModerationAnswer(
                outcome, code, null, null, null, null, null, null, null, null, null, null, null, null, null, note,
                null);
    }

    /** {@code blocklist}: a page of its entries, and where the next starts ({@code null}: none follows). */
    static ModerationAnswer listed(List<Entry> entries, @Nullable String nextAfter) {
        return new ModerationAnswer(
                "listed", null, null, null, null, null, null, null, null, null, null, null, null, entries, nextAfter,
                null, null);
    }

    static ModerationAnswer refused(String error) {
        return new ModerationAnswer(
                "refused", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                error);
    }

    static ModerationAnswer onHash(String outcome, String sha256) {
        return onHash(outcome, sha256, null, null, null);
    }

    static ModerationAnswer onHash(
            String outcome,
            String sha256,
            @Nullable List<String> copies,
            @Nullable Boolean copiesTruncated,
            @Nullable String note) {
        return new ModerationAnswer(
                outcome,
                null,
                null,
                null,
                null,
                sha256,
                null,
                null,
                null,
                null,
                copies,
                null,
                copiesTruncated,
                null,
                null,
                note,
                null);
    }
}
