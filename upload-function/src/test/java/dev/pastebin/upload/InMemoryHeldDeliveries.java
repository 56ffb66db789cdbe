package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.HeldDelivery;
import dev.pastebin.upload.hold.HeldDeliveryRepository;
import dev.pastebin.upload.hold.HeldReleaseStore;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The held deliveries' and the release's contracts in memory, for unit tests, the release's progress kept on the
 * breaker's snapshot in {@code breakers} as the real store keeps it on the breaker's row (no store: a breaker that is
 * never closed). The SQL is exercised by HeldReleaseIT and ReleaseReachIT.
 */
final class InMemoryHeldDeliveries implements HeldDeliveryRepository, HeldReleaseStore {

    private final Map<String, HeldDelivery> held = new ConcurrentHashMap<>();
    private final Map<String, Long> positions = new ConcurrentHashMap<>();
    private final @Nullable BreakerStore breakers;
    private final @Nullable InMemoryPasteRepository pastes;

    InMemoryHeldDeliveries() {
        this(null, null);
    }

    /** First holds are noted on {@code pastes}' rows (none: not noted). */
    InMemoryHeldDeliveries(@Nullable BreakerStore breakers, @Nullable InMemoryPasteRepository pastes) {
        this.breakers = breakers;
        this.pastes = pastes;
    }

    HeldDelivery of(String shortCode) {
        return held.get(shortCode);
    }

    long position(String breaker) {
        return positions.getOrDefault(breaker, 0L);
    }

    @Override
    public int recordHeldDelivery(
            String shortCode, String receiptHandle, Instant heldUntil, @Nullable Instant firstHeldAt) {
        held.put(shortCode, new HeldDelivery(shortCode, receiptHandle, heldUntil));
        if (pastes != null && firstHeldAt != null) {
            pastes.recordFirstHold(shortCode, firstHeldAt);
        }
        return 1;
    }

    @Override
    public int recordBreakerHold(
            String shortCode, String receiptHandle, Instant heldUntil, @Nullable Instant firstHeldAt, String breaker) {
        if (breakers != null && breakers.read(breaker).state() == BreakerState.CLOSED) {
            return 0;
        }
        return recordHeldDelivery(shortCode, receiptHandle, heldUntil, firstHeldAt);
    }

    @Override
    public long countHeldDeliveries(Instant now) {
        return held.values().stream().filter(h -> h.heldUntil().isAfter(now)).count();
    }

    @Override
    public synchronized boolean begin(String breaker, Instant closedAt, Instant leaseUntil) {
        if (breakers().read(breaker).state() != BreakerState.CLOSED) {
            return false;
        }
        positions.put(breaker, 0L);
        breakers().update(breaker, s -> withRelease(s, new BreakerSnapshot.PendingRelease(closedAt, leaseUntil)));
        return true;
    }

    @Override
    public synchronized Optional<Instant> lease(String breaker, Instant now, Instant leaseUntil) {
        BreakerSnapshot s = breakers().read(breaker);
        BreakerSnapshot.PendingRelease release = s.release();
        if (s.state() != BreakerState.CLOSED || release == null || !release.freeAt(now)) {
            return Optional.empty();
        }
        breakers().update(breaker, b -> withRelease(b, new BreakerSnapshot.PendingRelease(release.from(), leaseUntil)));
        return Optional.of(release.from());
    }

    @Override
    public synchronized Optional<Taken> take(String breaker, Instant releaseFrom, Instant now, int limit) {
        if (!current(breaker, releaseFrom)) {
            return Optional.empty();
        }
        List<HeldDelivery> page = held.values().stream()
                .filter(h -> h.heldUntil().isAfter(now))
                .sorted(Comparator.comparing(HeldDelivery::shortCode))
                .limit(limit)
                .toList();
        page.forEach(h -> held.remove(h.shortCode(), h));
        long first = positions.merge(breaker, (long) page.size(), Long::sum) - page.size();
        return Optional.of(new Taken(first, page));
    }

    @Override
    public void restore(List<HeldDelivery> deliveries) {
        deliveries.forEach(h -> held.putIfAbsent(h.shortCode(), h));
    }

    @Override
    public synchronized void finish(String breaker, Instant releaseFrom) {
        if (current(breaker, releaseFrom)) {
            breakers().update(breaker, s -> withRelease(s, null));
        }
    }

    @Override
    public synchronized void yieldLease(String breaker, Instant releaseFrom) {
        if (current(breaker, releaseFrom)) {
            breakers().update(breaker, s -> withRelease(s, new BreakerSnapshot.PendingRelease(releaseFrom, null)));
        }
    }

    private boolean current(String breaker, Instant releaseFrom) {
        BreakerSnapshot s = breakers().read(breaker);
        return s.state() == BreakerState.CLOSED
                && s.release() != null
                && s.release().from().equals(releaseFrom);
    }

    private BreakerStore breakers() {
        if (breakers == null) {
            throw new IllegalStateException("a release needs the breaker's store");
        }
        return breakers;
    }

    private static BreakerSnapshot withRelease(BreakerSnapshot s, BreakerSnapshot.@Nullable PendingRelease release) {
        return new BreakerSnapshot(
                s.state(),
                s.windowStartedAt(),
                s.windowCalls(),
                s.windowFailures(),
                s.previousCalls(),
                s.previousFailures(),
                s.openedAt(),
                s.nextProbeAt(),
                s.cooldown(),
                s.lastCause(),
                release);
    }
}
