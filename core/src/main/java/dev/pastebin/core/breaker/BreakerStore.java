package dev.pastebin.core.breaker;

import java.util.function.UnaryOperator;

/** Where a breaker's state is shared between execution environments. */
public interface BreakerStore {

    BreakerSnapshot read(String name);

    /** Applies {@code change} to the breaker atomically (no concurrent change in between); before and after. */
    Change update(String name, UnaryOperator<BreakerSnapshot> change);

    /** A breaker's value before and after an update. */
    record Change(BreakerSnapshot before, BreakerSnapshot after) {
        public boolean transitioned() {
            return before.state() != after.state();
        }
    }
}
