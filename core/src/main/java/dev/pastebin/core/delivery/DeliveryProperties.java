package dev.pastebin.core.delivery;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.FailureKind;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * When an upload job is delivered again ({@link DeliverySchedule}), bound from {@code pastebin.delivery.*}
 * (environment: {@code PASTEBIN_DELIVERY_MAX_ATTEMPTS}, ...). The queue's receive budget, which only the upload
 * worker reads, is {@link DeliveryQueueProperties} ({@code pastebin.delivery.queue.*}).
 *
 * <p>The fast schedule (docs/design.md, "Retry schedule"), in S3 attempts: 6 attempts, delays 1, 2, 4, 8, 16 s
 * after attempts 1..5 with +/- 200 ms jitter, about 31 s in all; after them a transiently failing upload retries
 * on the hold schedule, never FAILED, unless {@code give-up-after-attempts} is set (6: the original
 * specification's rule, FAILED after its 6th attempt).
 *
 * <p>The hold schedule (docs/design.md, "Circuit breaker"): how long a job held by the open breaker, or retrying
 * slowly after its fast attempts, stays away, and for how long in all before it is handed to the dead-letter
 * queue. Release on close: how fast the jobs held when the breaker closes come back.
 *
 * <p>{@code @Context}: the bean is built, and so checked, when the application context starts, so a
 * misconfigured function fails its init instead of its first message.
 *
 * @param maxAttempts         fast S3 attempts before a transiently failing upload moves to the slow retries
 * @param baseDelay           delay after the first failed attempt, for classes without their own base
 * @param multiplier          growth factor per attempt
 * @param maxDelay            cap on any delay (at most SQS's longest visibility timeout, {@link SqsLimits})
 * @param minDelay            floor on any delay, after jitter
 * @param jitter              the jitter strategy
 * @param plusMinusJitter     half-width of {@link JitterStrategy#PLUS_MINUS}'s jitter
 * @param classBaseDelays     per-error-class base delays (docs/design.md, "Per-error-class delays"); THROTTLING
 *                            defaults to 4 s
 * @param giveUpAfterAttempts 0 (the default): never give up, a transient failure never fails a paste; n: the
 *                            paste is FAILED when its n-th S3 attempt fails transiently (held deliveries make no
 *                            attempt, so they never count); must be below the queue's maxReceiveCount
 * @param holdAtLeast         a held or slow job comes back no sooner than this (bounds its receives)
 * @param holdJitter          up to this much random delay on top, so held jobs do not all come back at once
 * @param maxHold             the longest a job is held at a time by the time it has waited and the probe's: holds grow
 *                            with the time since its first hold up to this ({@link HoldSchedule}), so a long outage
 *                            costs a bounded number of receives; only the held backlog's spread (with release on
 *                            close, which brings held jobs back when S3 recovers) goes past it, to max-backlog-hold
 * @param holdLimit           a job waits (held or slow) at most this long since its first hold; past it, it is
 *                            handed to the dead-letter queue (the sweeper requeues it), never FAILED. The queue's
 *                            maxReceiveCount must cover it ({@link ReceiveBudget}, checked at start-up)
 * @param releaseEnabled      release on close: off, held jobs come back at their holds' ends only
 * @param releaseRate         released jobs made visible again a second: at least what the fleet drains (event source
 *                            mapping concurrency x parallelism / one upload's time), so that the release never paces
 *                            the drain; jobs offered faster than the mapping takes them wait visible in the queue,
 *                            harmlessly. 1,000 is the template's fleet at its fastest (20 uploads in flight at 20 ms
 *                            a PUT); locally 20 in flight drain 90-250 a second (docs/scale.md "The herd after an
 *                            outage")
 * @param releaseParallelism  visibility batches (10 held jobs each) a release keeps in flight at once: how fast one
 *                            invocation releases (docs/scale.md "Release on close")
 * @param heldDeliveryRate    with release on close, the held deliveries a second the fleet spends on the jobs the open
 *                            breaker holds, at most: each hold lasts at least the held backlog divided by this (5,000
 *                            held at 100 a second: 50 s), up to max-backlog-hold, so that held jobs coming back do not
 *                            crowd out first deliveries; the release brings them all back on close, so the longer holds
 *                            cost no recovery time ({@link HoldSchedule})
 * @param maxBacklogHold      the longest such a hold lasts (50,000 held at 100 a second: 500 s); beyond max-hold, which
 *                            would otherwise cap it at 30,000 held, since the release, not the hold's end, brings the
 *                            job back after a recovery
 */
@Context
@ConfigurationProperties("pastebin.delivery")
public record DeliveryProperties(
        @Min(1) @Max(SqsLimits.MAX_MAX_RECEIVE_COUNT) @Bindable(defaultValue = "6")
        int maxAttempts,

        @NotNull @Bindable(defaultValue = "1s") Duration baseDelay,
        @DecimalMin("1.0") @Bindable(defaultValue = "2.0") double multiplier,
        @NotNull @Bindable(defaultValue = "300s") Duration maxDelay,
        @NotNull @Bindable(defaultValue = "0s") Duration minDelay,
        @NotNull @Bindable(defaultValue = "PLUS_MINUS") JitterStrategy jitter,
        @NotNull @Bindable(defaultValue = "200ms") Duration plusMinusJitter,
        @Nullable Map<ErrorClass, Duration> classBaseDelays,

        @Min(0) @Max(SqsLimits.MAX_MAX_RECEIVE_COUNT) @Bindable(defaultValue = "0")
        int giveUpAfterAttempts,

        @NotNull @Bindable(defaultValue = "15s") Duration holdAtLeast,
        @NotNull @Bindable(defaultValue = "5s") Duration holdJitter,
        @NotNull @Bindable(defaultValue = "5m") Duration maxHold,
        @NotNull @Bindable(defaultValue = "24h") Duration holdLimit,
        @Bindable(defaultValue = "true") boolean releaseEnabled,

        @Min(1) @Max(100_000) @Bindable(defaultValue = "1000")
        int releaseRate,

        @Min(1) @Max(64) @Bindable(defaultValue = "8") int releaseParallelism,

        @Min(1) @Max(100_000) @Bindable(defaultValue = "100")
        int heldDeliveryRate,

        @NotNull @Bindable(defaultValue = "15m") Duration maxBacklogHold) {

    /** A throttled request waits longer than a plain 5xx before it is tried again. */
    public static final Duration DEFAULT_THROTTLING_BASE_DELAY = Duration.ofSeconds(4);

    public DeliveryProperties {
        var merged = new EnumMap<ErrorClass, Duration>(ErrorClass.class);
        merged.put(ErrorClass.THROTTLING, DEFAULT_THROTTLING_BASE_DELAY);
        if (classBaseDelays != null) {
            merged.putAll(classBaseDelays);
        }
        classBaseDelays = Collections.unmodifiableMap(merged);
        if (baseDelay != null && maxDelay != null && minDelay != null) {
            check(!baseDelay.isNegative() && !minDelay.isNegative(), "pastebin.delivery delays must not be negative");
            check(
                    minDelay.compareTo(maxDelay) <= 0,
                    "pastebin.delivery.min-delay (" + minDelay + ") must not exceed pastebin.delivery.max-delay ("
                            + maxDelay + ")");
            check(
                    maxDelay.compareTo(SqsLimits.MAX_VISIBILITY_TIMEOUT) <= 0,
                    "pastebin.delivery.max-delay (" + maxDelay + ") exceeds SQS's maximum visibility timeout of "
                            + SqsLimits.MAX_VISIBILITY_TIMEOUT.toHours() + " hours");
        }
        if (plusMinusJitter != null) {
            check(!plusMinusJitter.isNegative(), "pastebin.delivery.plus-minus-jitter must not be negative");
        }
        for (var entry : classBaseDelays.entrySet()) {
            check(
                    entry.getKey().kind() == FailureKind.TRANSIENT,
                    "pastebin.delivery.class-base-delays." + entry.getKey()
                            + ": permanent failures are never retried, so they have no delay");
            check(
                    entry.getValue() != null && !entry.getValue().isNegative(),
                    "pastebin.delivery.class-base-delays." + entry.getKey() + " must be a non-negative duration");
        }
        if (holdAtLeast != null) {
            check(
                    !holdAtLeast.isZero() && !holdAtLeast.isNegative(),
                    "pastebin.delivery.hold-at-least must be positive: it bounds how often a held job is received");
        }
        if (holdAtLeast != null && maxHold != null) {
            check(
                    maxHold.compareTo(holdAtLeast) >= 0,
                    "pastebin.delivery.max-hold (" + maxHold + ") must not be shorter than "
                            + "pastebin.delivery.hold-at-least (" + holdAtLeast + ")");
        }
        if (maxHold != null && holdJitter != null) {
            check(
                    maxHold.plus(holdJitter).compareTo(SqsLimits.MAX_VISIBILITY_TIMEOUT) <= 0,
                    "pastebin.delivery.max-hold + hold-jitter (" + maxHold.plus(holdJitter)
                            + ") exceeds SQS's maximum visibility timeout of "
                            + SqsLimits.MAX_VISIBILITY_TIMEOUT.toHours() + " hours");
        }
        if (maxHold != null && maxBacklogHold != null && holdJitter != null) {
            check(
                    maxBacklogHold.compareTo(maxHold) >= 0,
                    "pastebin.delivery.max-backlog-hold (" + maxBacklogHold + ") must not be shorter than "
                            + "pastebin.delivery.max-hold (" + maxHold + ")");
            check(
                    maxBacklogHold.plus(holdJitter).compareTo(SqsLimits.MAX_VISIBILITY_TIMEOUT) <= 0,
                    "pastebin.delivery.max-backlog-hold + hold-jitter (" + maxBacklogHold.plus(holdJitter)
                            + ") exceeds SQS's maximum visibility timeout of "
                            + SqsLimits.MAX_VISIBILITY_TIMEOUT.toHours() + " hours");
        }
        if (holdLimit != null) {
            check(!holdLimit.isZero() && !holdLimit.isNegative(), "pastebin.delivery.hold-limit must be positive");
        }
    }

    /** Whether a paste is given up (FAILED) when an S3 attempt fails transiently, rather than retried until the hold limit. */
    public boolean givesUp() {
        return giveUpAfterAttempts > 0;
    }

    /**
     * The longest a held job stays away, before jitter: max-backlog-hold while release on close brings held jobs back
     * (the held backlog's spread may reach it), else max-hold.
     */
    public Duration longestHold() {
        return releaseEnabled ? maxBacklogHold : maxHold;
    }

    /** The base delay of a class: its own if configured (THROTTLING always has one), else {@link #baseDelay()}. */
    public Duration baseDelayFor(ErrorClass errorClass) {
        return classBaseDelays.getOrDefault(errorClass, baseDelay);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new ConfigurationException(message);
        }
    }
}
