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
        @Nullable String lastCause) {

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
                newCause);
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
                lastCause);
    }

    public static BreakerSnapshot closed(Instant now) {
        return new BreakerSnapshot(BreakerState.CLOSED, now, 0, 0, 0, 0, null, null, Duration.ZERO, null);
    }
}
