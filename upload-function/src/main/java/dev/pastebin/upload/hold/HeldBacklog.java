package dev.pastebin.upload.hold;

import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How many jobs the breaker holds fleet-wide, as this environment last counted them: the backlog a breaker hold
 * spreads over {@code pastebin.delivery.held-delivery-rate} (docs/design.md, "Circuit breaker"). The count is part of
 * a delivery's first statement ({@link JdbcDeliveryStarts}), at most once every {@link #RECOUNT_EVERY} in an
 * environment and only while the breaker is not closed: a held delivery stays one round trip, and 50,000 held rows
 * are counted a few times a minute per environment, not at every delivery.
 */
@Singleton
public final class HeldBacklog {

    /** Holds follow a growing backlog within seconds, and the count (a scan of the held rows) stays rare. */
    static final Duration RECOUNT_EVERY = Duration.ofSeconds(5);

    private final AtomicReference<Instant> nextCount = new AtomicReference<>(Instant.MIN);
    private volatile long held;

    /** Whether the delivery starting at {@code now} counts the backlog: the first past the interval, and only it. */
    boolean claimCount(Instant now) {
        Instant due = nextCount.get();
        return !now.isBefore(due) && nextCount.compareAndSet(due, now.plus(RECOUNT_EVERY));
    }

    /** What the claiming delivery's statement counted: zero when the breaker was closed. */
    void counted(long heldJobs) {
        held = heldJobs;
    }

    /** The jobs held fleet-wide, as last counted. */
    public long held() {
        return held;
    }
}
