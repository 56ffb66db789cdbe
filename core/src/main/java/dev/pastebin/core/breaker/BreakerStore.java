package dev.pastebin.core.breaker;

import java.time.Instant;
import java.util.function.UnaryOperator;

/** Where a breaker's state is shared between execution environments. */
public interface BreakerStore {

    BreakerSnapshot read(String name);

    /** Applies {@code change} to the breaker atomically (no concurrent change in between); before and after. */
    Change update(String name, UnaryOperator<BreakerSnapshot> change);

    /**
     * Adds answers to a closed breaker's counts, {@code windowCalls} to the window that started at
     * {@code windowStartedAt} and {@code previousCalls} to the one before, without reading the row first:
     * concurrent additions all count. False, and nothing changed, when the breaker is no longer closed or its
     * window has moved on. This default goes through {@link #update}; a store shared by many callers adds in
     * place instead.
     */
    default boolean addAnswers(String name, Instant windowStartedAt, int windowCalls, int previousCalls) {
        Change change = update(
                name,
                s -> s.state() == BreakerState.CLOSED && s.windowStartedAt().equals(windowStartedAt)
                        ? s.counting(
                                windowStartedAt,
                                s.windowCalls() + windowCalls,
                                s.windowFailures(),
                                s.previousCalls() + previousCalls,
                                s.previousFailures())
                        : s);
        // The change hands back the very snapshot it was given when it does not apply: identity, not equality,
        // tells the two apart (adding zero calls may produce an equal snapshot that still counts as added).
        @SuppressWarnings("ReferenceEquality")
        boolean applied = change.after() != change.before();
        return applied;
    }

    /** A breaker's value before and after an update. */
    record Change(BreakerSnapshot before, BreakerSnapshot after) {
        public boolean transitioned() {
            return before.state() != after.state();
        }
    }
}
