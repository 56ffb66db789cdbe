package dev.pastebin.benchmarks.scale;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The real store, counted: how often callers read the row, take its lock, write it (a locked update that
 * changed it, or answers added in place), and move it to another state, and how long each locked update took
 * (waiting for the lock included). Counts belong to the {@link Tally} current when the call started, so each
 * phase of the load is counted on its own.
 */
final class CountingBreakerStore implements BreakerStore {

    /** One phase's counts. */
    static final class Tally {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger lockedUpdates = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger halfOpened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final Samples lockedUpdateMicros = new Samples();

        int transitions() {
            return opened.get() + halfOpened.get() + closed.get();
        }
    }

    private final BreakerStore store;
    private final AtomicReference<Tally> current = new AtomicReference<>(new Tally());

    CountingBreakerStore(BreakerStore store) {
        this.store = store;
    }

    /** Starts counting into a fresh tally and returns it. */
    Tally startTally() {
        Tally tally = new Tally();
        current.set(tally);
        return tally;
    }

    @Override
    public BreakerSnapshot read(String name) {
        current.get().reads.incrementAndGet();
        return store.read(name);
    }

    @Override
    public Change update(String name, UnaryOperator<BreakerSnapshot> change) {
        Tally tally = current.get();
        long start = System.nanoTime();
        Change result = store.update(name, change);
        tally.lockedUpdateMicros.add((System.nanoTime() - start) / 1_000);
        tally.lockedUpdates.incrementAndGet();
        if (!result.after().equals(result.before())) {
            tally.writes.incrementAndGet();
        }
        if (result.transitioned()) {
            BreakerState to = result.after().state();
            (to == BreakerState.OPEN ? tally.opened : to == BreakerState.HALF_OPEN ? tally.halfOpened : tally.closed)
                    .incrementAndGet();
        }
        return result;
    }

    @Override
    public boolean addAnswers(String name, Instant windowStartedAt, int windowCalls, int previousCalls) {
        Tally tally = current.get();
        boolean added = store.addAnswers(name, windowStartedAt, windowCalls, previousCalls);
        if (added) {
            tally.writes.incrementAndGet();
        }
        return added;
    }
}
