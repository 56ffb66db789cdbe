package dev.pastebin.core.delivery;

/**
 * How the delay before the next attempt is randomised around the exponential schedule
 * {@code nominal(n) = base * multiplier^(n-1)}. {@code u} is uniform in [0, 1).
 */
public enum JitterStrategy {
    /** The default: {@code nominal(n) + (2u - 1) * jitterAmount}, i.e. +/- 200 ms by default. Mean: nominal(n). */
    PLUS_MINUS,
    /** "Full jitter" (AWS Architecture Blog): {@code u * nominal(n)}. Mean: nominal(n) / 2. */
    FULL,
    /**
     * Decorrelated jitter: uniform between base and 3 x the previous delay, capped. The previous
     * delay is taken to be the un-jittered {@code nominal(n-1)} (base for the first retry), see
     * {@link BackoffPolicy}.
     */
    DECORRELATED,
    /** No randomness: exactly nominal(n). Useful for reasoning and tests; not recommended with many workers. */
    NONE
}
