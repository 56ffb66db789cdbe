package dev.pastebin.core.support;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerStore;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The breaker store's contract in memory, for unit tests, counting the writes it is asked for; the shared
 * PostgreSQL row is tested in JdbcBreakerStoreIT and S3CircuitBreakerIT.
 */
public final class InMemoryBreakerStore implements BreakerStore {

    private final Map<String, BreakerSnapshot> rows = new ConcurrentHashMap<>();
    private final AtomicInteger writes = new AtomicInteger();
    private final Clock clock;

    public InMemoryBreakerStore() {
        this(Clock.systemUTC());
    }

    /** A store whose breakers, named for the first time, start their window at {@code clock}'s now. */
    public InMemoryBreakerStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public BreakerSnapshot read(String name) {
        return rows.computeIfAbsent(name, n -> BreakerSnapshot.closed(clock.instant()));
    }

    @Override
    public synchronized Change update(String name, UnaryOperator<BreakerSnapshot> change) {
        writes.incrementAndGet();
        BreakerSnapshot before = read(name);
        BreakerSnapshot after = change.apply(before);
        rows.put(name, after);
        return new Change(before, after);
    }

    /** How many writes callers have asked for so far, whether or not they changed the row. */
    public int writes() {
        return writes.get();
    }
}
