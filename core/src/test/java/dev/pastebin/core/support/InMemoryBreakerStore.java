package dev.pastebin.core.support;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerStore;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/** The breaker store's contract in memory, for unit tests; the shared PostgreSQL row is tested in BreakerStoreIT. */
public final class InMemoryBreakerStore implements BreakerStore {

    private final Map<String, BreakerSnapshot> rows = new ConcurrentHashMap<>();

    @Override
    public BreakerSnapshot read(String name) {
        return rows.computeIfAbsent(name, n -> BreakerSnapshot.closed(Instant.now()));
    }

    @Override
    public synchronized Change update(String name, UnaryOperator<BreakerSnapshot> change) {
        BreakerSnapshot before = read(name);
        BreakerSnapshot after = change.apply(before);
        rows.put(name, after);
        return new Change(before, after);
    }
}
