package dev.pastebin.core.retry;

import dev.pastebin.core.delivery.SqsLimits;
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
 * The upload retry schedule, bound from {@code pastebin.upload.retry.*} (environment:
 * {@code PASTEBIN_UPLOAD_RETRY_MAX_ATTEMPTS}, ...). Defaults are the fast schedule of docs/design.md, "Retry schedule": 6
 * attempts, delays 1, 2, 4, 8, 16 s after attempts 1..5 with +/- 200 ms jitter, about 31 s in all; after them a
 * transiently failing upload retries on the breaker's slow hold schedule, never FAILED, unless
 * {@code give-up-after-attempts} is set (6: the original specification's rule, FAILED after its 6th attempt).
 *
 * <p>{@code @Context}: the bean is built, and so checked, when the application context starts, so a
 * misconfigured function fails its init instead of its first message.
 *
 * @param maxAttempts          fast attempts before a transiently failing upload moves to the slow retries
 * @param baseDelay            delay after the first failed attempt, for classes without their own base
 * @param multiplier           growth factor per attempt
 * @param maxDelay             cap on any delay (at most SQS's longest visibility timeout, {@link SqsLimits})
 * @param minDelay             floor on any delay, after jitter
 * @param jitter               the jitter strategy
 * @param plusMinusJitter      half-width of {@link JitterStrategy#PLUS_MINUS}'s jitter
 * @param classBaseDelays      per-error-class base delays (docs/design.md, "Per-error-class delays"); THROTTLING defaults to 4 s
 * @param queueMaxReceiveCount the upload queue's redrive {@code maxReceiveCount}: must exceed maxAttempts so
 *                             that the fast schedule runs before the queue moves a message to the dead-letter
 *                             queue; with the breaker on it must also cover a day of holds and slow retries
 *                             (the upload function's DeliveryBudget: 304 with the defaults)
 * @param giveUpAfterAttempts  0 (the default): never give up, a transient failure never fails a paste; n: the
 *                             paste is FAILED when its n-th S3 attempt fails transiently (held deliveries make
 *                             no attempt, so they never count); must be below queueMaxReceiveCount
 */
@Context
@ConfigurationProperties("pastebin.upload.retry")
public record RetryProperties(
        @Min(1) @Max(1000) @Bindable(defaultValue = "6") int maxAttempts,
        @NotNull @Bindable(defaultValue = "1s") Duration baseDelay,
        @DecimalMin("1.0") @Bindable(defaultValue = "2.0") double multiplier,
        @NotNull @Bindable(defaultValue = "300s") Duration maxDelay,
        @NotNull @Bindable(defaultValue = "0s") Duration minDelay,
        @NotNull @Bindable(defaultValue = "PLUS_MINUS") JitterStrategy jitter,
        @NotNull @Bindable(defaultValue = "200ms") Duration plusMinusJitter,
        @Nullable Map<ErrorClass, Duration> classBaseDelays,

        @Min(SqsLimits.MIN_MAX_RECEIVE_COUNT) @Max(SqsLimits.MAX_MAX_RECEIVE_COUNT) @Bindable(defaultValue = "320")
        int queueMaxReceiveCount,

        @Min(0) @Max(1000) @Bindable(defaultValue = "0") int giveUpAfterAttempts) {

    /** A throttled request waits longer than a plain 5xx before it is tried again. */
    public static final Duration DEFAULT_THROTTLING_BASE_DELAY = Duration.ofSeconds(4);

    public RetryProperties {
        var merged = new EnumMap<ErrorClass, Duration>(ErrorClass.class);
        merged.put(ErrorClass.THROTTLING, DEFAULT_THROTTLING_BASE_DELAY);
        if (classBaseDelays != null) {
            merged.putAll(classBaseDelays);
        }
        classBaseDelays = Collections.unmodifiableMap(merged);
        check(
                queueMaxReceiveCount > maxAttempts,
                "pastebin.upload.retry.queue-max-receive-count (" + queueMaxReceiveCount + ") must be greater than "
                        + "pastebin.upload.retry.max-attempts (" + maxAttempts
                        + "): otherwise the queue moves a failing "
                        + "message to the dead-letter queue before its fast attempts are even made. Raise the queue's maxReceiveCount (and this property) or lower max-attempts.");
        check(
                giveUpAfterAttempts < queueMaxReceiveCount,
                "pastebin.upload.retry.give-up-after-attempts (" + giveUpAfterAttempts + ") must be less than "
                        + "pastebin.upload.retry.queue-max-receive-count (" + queueMaxReceiveCount
                        + "): otherwise the queue "
                        + "moves a failing message to the dead-letter queue before the paste is given up.");
        if (baseDelay != null && maxDelay != null && minDelay != null) {
            check(
                    !baseDelay.isNegative() && !minDelay.isNegative(),
                    "pastebin.upload.retry delays must not be negative");
            check(
                    minDelay.compareTo(maxDelay) <= 0,
                    "pastebin.upload.retry.min-delay (" + minDelay
                            + ") must not exceed pastebin.upload.retry.max-delay (" + maxDelay + ")");
            check(
                    maxDelay.compareTo(SqsLimits.MAX_VISIBILITY_TIMEOUT) <= 0,
                    "pastebin.upload.retry.max-delay (" + maxDelay
                            + ") exceeds SQS's maximum visibility timeout of "
                            + SqsLimits.MAX_VISIBILITY_TIMEOUT.toHours() + " hours");
        }
        if (plusMinusJitter != null) {
            check(!plusMinusJitter.isNegative(), "pastebin.upload.retry.plus-minus-jitter must not be negative");
        }
        for (var entry : classBaseDelays.entrySet()) {
            check(
                    entry.getKey().kind() == FailureKind.TRANSIENT,
                    "pastebin.upload.retry.class-base-delays." + entry.getKey()
                            + ": permanent failures are never retried, so they have no delay");
            check(
                    entry.getValue() != null && !entry.getValue().isNegative(),
                    "pastebin.upload.retry.class-base-delays." + entry.getKey() + " must be a non-negative duration");
        }
    }

    /** Whether a paste is given up (FAILED) when an S3 attempt fails transiently, rather than retried until the hold limit. */
    public boolean givesUp() {
        return giveUpAfterAttempts > 0;
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
