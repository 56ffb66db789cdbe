package dev.pastebin.core.delivery;

/**
 * One real S3 attempt of a paste's upload, as the paste's row counts them ({@code upload_attempts}): the fast
 * schedule, its backoff and the give-up rule go by it. Not a {@link Delivery}: a delivery held by the breaker,
 * released unstarted or failed on the database makes no S3 attempt.
 *
 * @param number 1 for the first attempt
 */
public record S3Attempt(int number) {

    public S3Attempt {
        if (number < 1) {
            throw new IllegalArgumentException("S3 attempts count from 1: " + number);
        }
    }

    /** The attempt that follows {@code made} attempts (the row's {@code upload_attempts}). */
    public static S3Attempt after(int made) {
        return new S3Attempt(made + 1);
    }

    /** The attempts that failed before this one. */
    public int retriesBefore() {
        return number - 1;
    }

    @Override
    public String toString() {
        return Integer.toString(number);
    }
}
