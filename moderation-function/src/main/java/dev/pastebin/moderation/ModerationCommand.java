package dev.pastebin.moderation;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * What an operator asks of {@link ModerationHandler}, as the JSON {@code infra/admin} sends:
 * {@code {"action":"takedown","code":..,"reason":..,"requestedBy":..,"block":true}},
 * {@code {"action":"block","sha256":..,"reason":..,"requestedBy":..}}, {@code {"action":"unblock",...}} or
 * {@code {"action":"blocklist"}}. Checked by {@link ModerationService}, which answers a clear error for anything
 * else.
 *
 * @param requestedBy who asks, as the invoker states it (infra/admin passes {@code aws sts get-caller-identity}'s
 *                    ARN): Lambda does not tell a directly invoked function its caller; CloudTrail's record of the
 *                    Invoke call is the authenticated one
 * @param block       whether a takedown also blocklists the content's hash; absent means yes
 */
@Serdeable
public record ModerationCommand(
        @Nullable String action,
        @Nullable String code,
        @Nullable String sha256,
        @Nullable String reason,
        @Nullable String requestedBy,
        @Nullable Boolean block) {}
