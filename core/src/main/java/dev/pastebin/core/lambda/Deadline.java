package dev.pastebin.core.lambda;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When a function must stop starting new work: while more than {@code margin} is left of the time
 * {@code remaining} reports, in milliseconds (the Lambda Context's remaining time), there is room for one more unit
 * (a record of a batch, a batch of the sweep). The margin must cover one unit's worst case.
 */
public record Deadline(LongSupplier remaining, Duration margin) {

    /** No deadline: run until the work is done (a call outside Lambda, without a Context). */
    public static Deadline none() {
        return new Deadline(() -> Long.MAX_VALUE, Duration.ZERO);
    }

    public boolean allowsMoreWork() {
        return remainingMillis() > margin.toMillis();
    }

    public long remainingMillis() {
        return remaining.getAsLong();
    }
}
