package dev.pastebin.sweeper;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When the sweeper must stop starting new batches: while more than {@code margin} is left of the time
 * {@code remainingMillis} reports (the Lambda Context's remaining time).
 */
public record Deadline(LongSupplier remainingMillis, Duration margin) {

    /** No deadline: run until the work is done (a call outside Lambda, without a Context). */
    public static Deadline none() {
        return new Deadline(() -> Long.MAX_VALUE, Duration.ZERO);
    }

    public boolean allowsAnotherBatch() {
        return remainingMillis.getAsLong() > margin.toMillis();
    }
}
