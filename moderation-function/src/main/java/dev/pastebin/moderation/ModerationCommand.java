package dev.pastebin.moderation;

import io.micronaut.core.annotation.Creator;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * What an operator asks of {@link ModerationHandler}, as the JSON {@code infra/admin} sends:
 * {@code {"action":"takedown","code":..,"reason":..,"requestedBy":..,"block":true,"onlyThisCode":false}},
 * {@code {"action":"block","sha256":..,"reason":..,"requestedBy":..}}, {@code {"action":"unblock",...}},
 * {@code {"action":"blocklist","after":..,"limit":..}} or {@code {"action":"copies","code":..}} /
 * {@code {"action":"copies","sha256":..}}. Checked by {@link ModerationService}, which answers a clear error for
 * anything else.
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
        @Nullable Integer limit) {

    @Creator
    public ModerationCommand {}

    /** A command without a blocklist page's {@code after} and {@code limit}. */
    public ModerationCommand(
            @Nullable String action,
            @Nullable String code,
            @Nullable String sha256,
            @Nullable String reason,
            @Nullable String requestedBy,
            @Nullable Boolean block,
            @Nullable Boolean onlyThisCode) {
        this(action, code, sha256, reason, requestedBy, block, onlyThisCode, null, null);
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
