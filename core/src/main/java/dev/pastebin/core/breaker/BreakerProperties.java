package dev.pastebin.core.breaker;

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
 * @param enabled          off: every upload calls S3 and follows the fast schedule alone (no holds). How long a
 *                         held job waits is not the breaker's: {@code pastebin.delivery.*} sets it
 * @param name             the breaker's row in {@code circuit_breakers}: every environment using the same
 *                         name shares one breaker (one per bucket, say)
 * @param window           the failure rate is counted over windows of this length
 * @param minimumCalls     no rate is judged on fewer S3 calls (over the last window): a burst of parallel
 *                         failures, which come back faster than successes, is not an outage
 * @param failureRate      open when at least this share of the window's calls failed transiently; a flaky S3
 *                         that fails half the calls stays closed and the retry schedule handles it
 * @param cooldown         open → the first probe after this long; doubled after each failed probe (1 s, 2 s, 4 s)
 * @param maxCooldown      cap on the cooldown: the probe, which closes the breaker and releases the held jobs, comes
 *                         at most this long after S3's recovery (plus the wait for a caller, none while jobs are
 *                         held by the thousand). A short cap is no storm: one probe is in flight fleet-wide (the
 *                         row's HALF_OPEN election) and only a caller probes, so an outage costs at most one PUT per
 *                         cap, and fewer when jobs come back less often (21,600 a day at 4 s, about $0.11)
 * @param probeTimeout     a probe that has not reported after this long is taken to be lost; another may run
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

        @NotNull @Bindable(defaultValue = "1s") Duration cooldown,
        @NotNull @Bindable(defaultValue = "4s") Duration maxCooldown,
        @NotNull @Bindable(defaultValue = "30s") Duration probeTimeout) {

    public BreakerProperties {
        if (cooldown != null && maxCooldown != null && cooldown.compareTo(maxCooldown) > 0) {
            throw new ConfigurationException("pastebin.breaker.cooldown (" + cooldown
                    + ") must not exceed pastebin.breaker.max-cooldown (" + maxCooldown + ")");
        }
    }
}
