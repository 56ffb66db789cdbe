package dev.pastebin.core.delivery;

import dev.pastebin.core.failure.ErrorClass;
import java.util.random.RandomGenerator;

/**
 * The delay before the next attempt of a transiently failed upload: a pure function of the number of the S3
 * attempt that failed (counted on the paste's row, {@code upload_attempts}), the error class and a random source.
 * A failure that reached no S3 attempt (the database, a poison message) is backed off by its {@link Delivery}
 * instead: the two numbers have their own types, so one is never passed for the other.
 *
 * <p>Schedule: {@code nominal(n) = base(class) * multiplier^(n-1)}, so with the defaults the delays after
 * attempts 1..5 are 1, 2, 4, 8, 16 s; the configured {@link JitterStrategy} randomises it; the result is
 * clamped to [minDelay, maxDelay].
 *
 * <p>Decorrelated jitter is defined on the previous <em>actual</em> delay, which a worker that only sees
 * the attempt count does not know. It could be carried in a message attribute, but SQS cannot change a
 * message's attributes: that would take delete + re-send, which resets {@code ApproximateReceiveCount}
 * and with it the redrive safety net (the pattern the design rejects). So the previous delay is taken to
 * be the un-jittered {@code nominal(n-1)} (base for the first retry): the delay stays a pure function of
 * the attempt, keeps the bounds {@code [base, min(cap, 3 * previous)]}, and still spreads workers
 * that failed together.
 */
final class BackoffPolicy {

    private final DeliveryProperties properties;
    private final RandomGenerator random;

    /** {@code random}: {@link DeliverySchedule}'s, restore-safe; a seeded one in tests. */
    BackoffPolicy(DeliveryProperties properties, RandomGenerator random) {
        this.properties = properties;
        this.random = random;
    }

    int maxAttempts() {
        return properties.maxAttempts();
    }

    /** Whether a transient failure of {@code attempt} may be retried on the fast schedule. */
    boolean hasAttemptsLeft(S3Attempt attempt) {
        return attempt.number() < properties.maxAttempts();
    }

    /**
     * Whether a transient failure of {@code attempt} fails the paste for good: only with
     * {@code give-up-after-attempts} set, and from that attempt on (by default never).
     */
    boolean givesUpAfter(S3Attempt attempt) {
        return properties.givesUp() && attempt.number() >= properties.giveUpAfterAttempts();
    }

    /** The visibility timeout after the failed S3 {@code attempt}: see {@link #visibilityTimeoutSeconds(int, ErrorClass)}. */
    int visibilityTimeoutSeconds(S3Attempt attempt, ErrorClass errorClass) {
        return visibilityTimeoutSeconds(attempt.number(), errorClass);
    }

    /** The visibility timeout after a {@code delivery} that failed before any S3 attempt, backed off by its number. */
    int visibilityTimeoutSeconds(Delivery delivery, ErrorClass errorClass) {
        return visibilityTimeoutSeconds(delivery.number(), errorClass);
    }

    /** The un-jittered delay after the {@code attempt}-th failure, in seconds, capped. */
    double nominalDelaySeconds(int attempt, ErrorClass errorClass) {
        double base = seconds(properties.baseDelayFor(errorClass));
        double nominal = base * Math.pow(properties.multiplier(), Math.max(1, attempt) - 1);
        return Math.min(nominal, seconds(properties.maxDelay()));
    }

    /** The jittered delay after the {@code attempt}-th failure, in (fractional) seconds, within [min, max]. */
    double delaySeconds(int attempt, ErrorClass errorClass) {
        double nominal = nominalDelaySeconds(attempt, errorClass);
        double u = random.nextDouble();
        double delay = switch (properties.jitter()) {
            case PLUS_MINUS -> nominal + (2 * u - 1) * seconds(properties.plusMinusJitter());
            case FULL -> u * nominal;
            case DECORRELATED -> {
                double base = seconds(properties.baseDelayFor(errorClass));
                double previous = attempt <= 1 ? base : nominalDelaySeconds(attempt - 1, errorClass);
                double upper = Math.max(base, 3 * previous);
                yield base + u * (upper - base);
            }
            case NONE -> nominal;
        };
        return Math.clamp(delay, seconds(properties.minDelay()), seconds(properties.maxDelay()));
    }

    /**
     * The delay as an SQS visibility timeout, which takes whole seconds. Rounding to nearest would bend the
     * schedule (every 1.2 s becomes 1 s, every 0.6 s becomes 1 s); instead the fraction is rounded
     * <em>probabilistically</em>: up with probability equal to the fractional part, so 1.3 s becomes 2 s
     * 30% of the time and 1 s otherwise. The expected value is exactly the jittered delay, so the mean
     * schedule stays the configured one; the result is clamped to what SQS takes ({@link SqsLimits}).
     */
    int visibilityTimeoutSeconds(int attempt, ErrorClass errorClass) {
        return roundProbabilistically(delaySeconds(attempt, errorClass));
    }

    int roundProbabilistically(double seconds) {
        double floor = Math.floor(seconds);
        long whole = (long) floor + (random.nextDouble() < seconds - floor ? 1 : 0);
        return SqsLimits.visibilityTimeoutSeconds(whole);
    }

    private static double seconds(java.time.Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
