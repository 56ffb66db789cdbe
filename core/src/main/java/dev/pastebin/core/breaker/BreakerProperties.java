package dev.pastebin.core.breaker;

import dev.pastebin.core.delivery.SqsLimits;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Duration;

/**
 * The shared circuit breaker on S3 (docs/design.md, "Circuit breaker"), bound from {@code pastebin.breaker.*}
 * (e.g. {@code PASTEBIN_BREAKER_COOLDOWN=20s}).
 *
 * @param enabled          off: every upload calls S3 and follows the retry schedule alone
 * @param name             the breaker's row in {@code circuit_breakers}: every environment using the same
 *                         name shares one breaker (one per bucket, say)
 * @param window           the failure rate is counted over windows of this length
 * @param minimumCalls     no rate is judged on fewer S3 calls (over the last window): a burst of parallel
 *                         failures, which come back faster than successes, is not an outage
 * @param failureRate      open when at least this share of the window's calls failed transiently; a flaky S3
 *                         that fails half the calls stays closed and the retry schedule handles it
 * @param cooldown         open → the first probe after this long; doubled after each failed probe
 * @param maxCooldown      cap on the cooldown: after a long outage the probe, which releases the held jobs, comes
 *                         at most this long after S3's recovery (plus the wait for a caller); one PUT per cap
 *                         while S3 stays down (2,880 a day at 30 s)
 * @param probeTimeout     a probe that has not reported after this long is taken to be lost; another may run
 * @param holdAtLeast      a job held by the open breaker comes back no sooner than this (bounds its receives)
 * @param holdJitter       up to this much random delay on top, so held jobs do not all come back at once
 * @param maxHold          the longest a job is held at a time: holds grow with the time since its first hold
 *                         up to this ({@link HoldSchedule}), so a long outage costs a bounded number of receives
 *                         and a recovered S3 is used within this long
 * @param holdLimit        a job is held at most this long since its first hold; past it, it is left to the
 *                         queue's redrive (the dead-letter queue keeps it and the sweeper requeues it), never
 *                         FAILED. The queue's maxReceiveCount must cover it (checked at start-up)
 */
@ConfigurationProperties("pastebin.breaker")
public record BreakerProperties(
        @Bindable(defaultValue = "true") boolean enabled,

        @NotBlank @Size(max = 32) @Bindable(defaultValue = "s3")
        String name,

        @NotNull @Bindable(defaultValue = "60s") Duration window,
        @Min(1) @Max(10_000) @Bindable(defaultValue = "10") int minimumCalls,

        @DecimalMin("0.01") @DecimalMax("1.0") @Bindable(defaultValue = "0.9")
        double failureRate,

        @NotNull @Bindable(defaultValue = "10s") Duration cooldown,
        @NotNull @Bindable(defaultValue = "30s") Duration maxCooldown,
        @NotNull @Bindable(defaultValue = "30s") Duration probeTimeout,
        @NotNull @Bindable(defaultValue = "15s") Duration holdAtLeast,
        @NotNull @Bindable(defaultValue = "5s") Duration holdJitter,
        @NotNull @Bindable(defaultValue = "5m") Duration maxHold,
        @NotNull @Bindable(defaultValue = "24h") Duration holdLimit) {

    public BreakerProperties {
        if (cooldown != null && maxCooldown != null && cooldown.compareTo(maxCooldown) > 0) {
            throw new ConfigurationException("pastebin.breaker.cooldown (" + cooldown
                    + ") must not exceed pastebin.breaker.max-cooldown (" + maxCooldown + ")");
        }
        if (holdAtLeast != null && (holdAtLeast.isZero() || holdAtLeast.isNegative())) {
            throw new ConfigurationException(
                    "pastebin.breaker.hold-at-least must be positive: it bounds how often " + "a held job is received");
        }
        if (holdAtLeast != null && maxHold != null && maxHold.compareTo(holdAtLeast) < 0) {
            throw new ConfigurationException("pastebin.breaker.max-hold (" + maxHold
                    + ") must not be shorter than pastebin.breaker.hold-at-least (" + holdAtLeast + ")");
        }
        if (maxHold != null
                && holdJitter != null
                && maxHold.plus(holdJitter).compareTo(SqsLimits.MAX_VISIBILITY_TIMEOUT) > 0) {
            throw new ConfigurationException("pastebin.breaker.max-hold + hold-jitter (" + maxHold.plus(holdJitter)
                    + ") exceeds SQS's maximum visibility timeout of " + SqsLimits.MAX_VISIBILITY_TIMEOUT.toHours()
                    + " hours");
        }
        if (holdLimit != null && (holdLimit.isZero() || holdLimit.isNegative())) {
            throw new ConfigurationException("pastebin.breaker.hold-limit must be positive");
        }
    }
}
