package dev.pastebin.core.random;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * The random source of every jitter (backoff delays, breaker holds): it stays random across SnapStart
 * restores.
 *
 * <p>A SnapStart snapshot copies the heap, so any generator whose state lives there ({@code Random},
 * {@code SplittableRandom}, and {@code ThreadLocalRandom}'s per-thread seeds) makes every environment
 * restored from one snapshot draw the same sequence: environments that failed together would retry
 * together, which is what jitter exists to prevent. {@code NativePRNGNonBlocking} reads {@code /dev/urandom}
 * on every draw (mixed with, never replaced by, its in-heap state), so draws after a restore come from the
 * kernel of the restored environment and need no reseeding hook. A draw costs under a microsecond
 * (docs/decisions.md, "Jitter from a restore-safe random source"), nothing next to the S3 attempt it delays.
 * Thread-safe without a lock.
 */
public final class RestoreSafeRandom {

    private static final RandomGenerator SOURCE = create();

    private RestoreSafeRandom() {}

    /** The shared restore-safe generator. */
    public static RandomGenerator generator() {
        return SOURCE;
    }

    private static RandomGenerator create() {
        try {
            return SecureRandom.getInstance("NativePRNGNonBlocking");
        } catch (NoSuchAlgorithmException e) {
            // Not a Unix-like JVM (never Lambda): the platform default, also read from the OS on each draw there.
            return new SecureRandom();
        }
    }
}
