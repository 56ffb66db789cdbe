package dev.pastebin.upload.hold;

import dev.pastebin.core.paste.HeldDelivery;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The release on close's shared progress (docs/design.md, "Circuit breaker"), kept on the breaker's row next to its
 * state: which close's release is not finished, how many held deliveries it has taken, and which invocation is
 * releasing. The probe that closes the breaker begins it; later invocations of the upload function continue it, one
 * at a time (the one holding its lease), until no held delivery is left, whatever one invocation can do before its
 * margin. A page of held deliveries is taken by forgetting their handles, so no two invocations release the same
 * message. Every method is one statement.
 */
public interface HeldReleaseStore {

    /** Held deliveries taken by a release: where the first falls in the release's order, and the deliveries. */
    record Taken(long firstPosition, List<HeldDelivery> held) {}

    /**
     * Begins the release of the close at {@code closedAt}, leased to the caller until {@code leaseUntil}; false when
     * the breaker is not closed (it opened again meanwhile).
     */
    boolean begin(String breaker, Instant closedAt, Instant leaseUntil);

    /**
     * Takes the lease of the closed breaker's unfinished release when nobody holds it at {@code now} (or its holder's
     * lease ran out): the close it belongs to. Empty when there is none, or another invocation is releasing.
     */
    Optional<Instant> lease(String breaker, Instant now, Instant leaseUntil);

    /**
     * Takes up to {@code limit} deliveries still held at {@code now}, the longest waiting first, forgetting their
     * handles, and advances the release's position by as many. Empty when the release of {@code releaseFrom} is no
     * longer the breaker's (it opened again, or a later close began its own); none taken when nothing is held.
     */
    Optional<Taken> take(String breaker, Instant releaseFrom, Instant now, int limit);

    /** Notes these held deliveries again (their release failed), unless held again or stored since: a later page takes them. */
    void restore(List<HeldDelivery> held);

    /** Ends the release of {@code releaseFrom}: nothing held is left. */
    void finish(String breaker, Instant releaseFrom);

    /** Gives back the lease of the release of {@code releaseFrom} unfinished, so that the next invocation continues it. */
    void yieldLease(String breaker, Instant releaseFrom);
}
