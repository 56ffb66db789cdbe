package dev.pastebin.moderation;

import io.micronaut.core.annotation.Creator;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * What an operator asks of {@link ModerationHandler}, as the JSON {@code infra/admin} sends:
 * {@code {"action":"takedown","code":..,"reason":..,"requestedBy":..,"block":true,"onlyThisCode":false}},
 * {@code {"action":"block","sha256":..,"reason":..,"requestedBy":..}}, {@code {"action":"unblock",...}},
 * {@code {"action":"blocklist","after":..,"limit":..}} or {@code {"action":"copies","code":..}} /
 * {@code {"action":"copies","sha256":..}}, checked by {@link ModerationService}, which answers a clear error for
 * anything else; or API keys' ({@link KeysService}): {@code {"action":"create-key","name":..,"dailyPastes":..,
 * "dailyBytes":..,"requestedBy":..}}, {@code {"action":"list-keys"}}, {@code {"action":"revoke-key","id":..,
 * "requestedBy":..}}.
 *
 * @param requestedBy who asks, as the invoker states it (infra/admin passes {@code aws sts get-caller-identity}'s
 *                    ARN): Lambda does not tell a directly invoked function its caller; CloudTrail's record of the
 *                    Invoke call is the authenticated one
 * @param block        whether a takedown also blocklists the content's hash; absent means yes
 * @param onlyThisCode whether a takedown that blocklists the hash takes down this code alone, leaving the other
 *                     codes that hold the same content readable; absent means no: it takes down every one of them
 *                     (a takedown with {@code block} false takes down this code alone in any case)
 * @param after        blocklist: the page starts after this hash (the previous page's {@code nextAfter}); absent
 *                     means from the first
 * @param limit        blocklist: the most entries the page holds, 1 to {@value ModerationService#MAX_BLOCKLIST_PAGE};
 *                     absent means that most
 * @param name         create-key: whom or what the key is for
 * @param id           revoke-key: the key's id, as create-key and list-keys answer it
 * @param dailyPastes  create-key: how many pastes the key may create per UTC day; absent means unlimited
 * @param dailyBytes   create-key: how many bytes of content it may create per UTC day; absent means unlimited
 */
@Serdeable
public record ModerationCommand(
        @Nullable String action,
        @Nullable String code,
        @Nullable String sha256,
        @Nullable String reason,
        @Nullable String requestedBy,
        @Nullable Boolean block,
        @Nullable Boolean onlyThisCode,
        @Nullable String after,
        @Nullable Integer limit,
        @Nullable String name,
        @Nullable String id,
        @Nullable Long dailyPastes,
        @Nullable Long dailyBytes) {

    @Creator
    public ModerationCommand {}

    /** A moderation command without a blocklist page's {@code after} and {@code limit} (and none of the keys' fields). */
    public ModerationCommand(
            @Nullable String action,
            @Nullable String code,
            @Nullable String sha256,
            @Nullable String reason,
            @Nullable String requestedBy,
            @Nullable Boolean block,
            @Nullable Boolean onlyThisCode) {
        this(action, code, sha256, reason, requestedBy, block, onlyThisCode, null, null, null, null, null, null);
    }

    /** A keys command. */
    static ModerationCommand keys(
            String action,
            @Nullable String name,
            @Nullable String id,
            @Nullable Long dailyPastes,
            @Nullable Long dailyBytes,
            @Nullable String requestedBy) {
        return new ModerationCommand(
                action, null, null, null, requestedBy, null, null, null, null, name, id, dailyPastes, dailyBytes);
    }

    /** A command without {@code onlyThisCode}. */
    public ModerationCommand(
            @Nullable String action,
            @Nullable String code,
            @Nullable String sha256,
            @Nullable String reason,
            @Nullable String requestedBy,
            @Nullable Boolean block) {
        this(action, code, sha256, reason, requestedBy, block, null);
    }
}
