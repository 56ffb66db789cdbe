package dev.pastebin.core.breaker;

import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;

/**
 * The breaker changed state: published by {@link S3CircuitBreaker} in the call that changed it, synchronously (a
 * Lambda invocation must not end before it is recorded); {@link BreakerTransitionRecorder} logs and counts it.
 *
 * @param breaker        the breaker's name: its row
 * @param from           the state before
 * @param to             the state after
 * @param cause          why: what opened it (never content), or {@code probe succeeded} when it closed
 * @param windowCalls    the calls counted in the current window, after the change
 * @param windowFailures the failures among them
 * @param cooldown       to OPEN: how long it stays open before a probe; otherwise null
 * @param nextProbeAt    to OPEN: when the probe may start; to HALF_OPEN: when a silent probe counts as lost; to
 *                       CLOSED: null
 * @param openFor        to CLOSED: how long it was not closed; otherwise null
 * @param at             when the change was made
 */
public record BreakerTransition(
        String breaker,
        BreakerState from,
        BreakerState to,
        @Nullable String cause,
        int windowCalls,
        int windowFailures,
        @Nullable Duration cooldown,
        @Nullable Instant nextProbeAt,
        @Nullable Duration openFor,
        Instant at) {

    /** The change of the row named {@code breaker} from {@code before} to {@code after}, made at {@code at}. */
    static BreakerTransition between(String breaker, BreakerSnapshot before, BreakerSnapshot after, Instant at) {
        boolean closes = after.state() == BreakerState.CLOSED;
        return new BreakerTransition(
                breaker,
                before.state(),
                after.state(),
                closes ? "probe succeeded" : after.lastCause(),
                after.windowCalls(),
                after.windowFailures(),
                after.state() == BreakerState.OPEN ? after.cooldown() : null,
                closes ? null : after.nextProbeAt(),
                closes && before.openedAt() != null ? Duration.between(before.openedAt(), at) : null,
                at);
    }
}
