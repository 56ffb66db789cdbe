package dev.pastebin.core.breaker;

import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * The breaker as stored in its row: the state, the current and the previous counting window (together a
 * sliding estimate of the last window's length), and when the next probe may run.
 *
 * @param nextProbeAt OPEN: when the one probe may start; HALF_OPEN: when a silent probe counts as lost
 * @param cooldown    the current cooldown (grows after failed probes); zero while closed
 * @param lastCause   why it last opened, for logs; never content
 * @param release     the release of the held jobs that a close began and that is not finished yet, which the upload
 *                    worker continues; null when none is pending. Read along with the state, never written by the
 *                    breaker: the release keeps it
 */
public record BreakerSnapshot(
        BreakerState state,
        Instant windowStartedAt,
        int windowCalls,
        int windowFailures,
        int previousCalls,
        int previousFailures,
        @Nullable Instant openedAt,
        @Nullable Instant nextProbeAt,
        Duration cooldown,
        @Nullable String lastCause,
        @Nullable PendingRelease release) {

    /**
     * A release of held jobs in progress (docs/design.md, "Circuit breaker").
     *
     * @param from        the close it began at
     * @param leasedUntil the invocation releasing holds it until then; null when nobody does
     */
    public record PendingRelease(Instant from, @Nullable Instant leasedUntil) {

        /** Whether another invocation may take it over at {@code now}: nobody holds it, or its holder's time is up. */
        public boolean freeAt(Instant now) {
            return leasedUntil == null || !now.isBefore(leasedUntil);
        }
    }

    BreakerSnapshot with(
            BreakerState newState,
            @Nullable Instant newOpenedAt,
            @Nullable Instant newNextProbeAt,
            Duration newCooldown,
            @Nullable String newCause) {
        return new BreakerSnapshot(
                newState,
                windowStartedAt,
                windowCalls,
                windowFailures,
                previousCalls,
                previousFailures,
                newOpenedAt,
                newNextProbeAt,
                newCooldown,
                newCause,
                release);
    }

    BreakerSnapshot counting(Instant newWindowStartedAt, int calls, int failures, int prevCalls, int prevFailures) {
        return new BreakerSnapshot(
                state,
                newWindowStartedAt,
                calls,
                failures,
                prevCalls,
                prevFailures,
                openedAt,
                nextProbeAt,
                cooldown,
                lastCause,
                release);
    }

    public static BreakerSnapshot closed(Instant now) {
        return new BreakerSnapshot(BreakerState.CLOSED, now, 0, 0, 0, 0, null, null, Duration.ZERO, null, null);
    }
}
