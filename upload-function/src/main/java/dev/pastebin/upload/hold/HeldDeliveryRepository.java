package dev.pastebin.upload.hold;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.time.Instant;

/**
 * The held deliveries noted on the pastes' rows, for release on close (docs/design.md, "Circuit breaker"): which
 * message each held upload job made invisible, until when. A paste leaving IN_PROGRESS forgets its own
 * ({@link PasteRepository#markProcessed}, {@link PasteRepository#markFailed}); the release takes them
 * ({@link HeldReleaseStore#take}).
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface HeldDeliveryRepository extends GenericRepository<Paste, String> {

    /**
     * Notes the message a hold made invisible and when that hold ends, replacing an earlier hold's: the probe
     * that closes the breaker releases it (docs/design.md, "Circuit breaker"); and {@code firstHeldAt} as the paste's
     * first hold, if it has none (null: nothing to note). Not a transition either. For a job waiting on its own
     * (slow) schedule; a job the breaker holds is noted with {@link #recordBreakerHold}.
     */
    @Query("""
            UPDATE pastes SET held_receipt_handle = :receiptHandle, held_until = :heldUntil,
                first_held_at = coalesce(first_held_at, CAST(:firstHeldAt AS TIMESTAMPTZ))
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int recordHeldDelivery(String shortCode, String receiptHandle, Instant heldUntil, @Nullable Instant firstHeldAt);

    /**
     * Notes a hold of the open {@code breaker} as {@link #recordHeldDelivery} does, but only while that breaker is not
     * closed: 0 when it closed meanwhile (the release on close may have passed this row already, so the caller
     * releases its message itself) or the paste left IN_PROGRESS.
     */
    @Query("""
            UPDATE pastes SET held_receipt_handle = :receiptHandle, held_until = :heldUntil,
                first_held_at = coalesce(first_held_at, CAST(:firstHeldAt AS TIMESTAMPTZ))
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'
              AND EXISTS (SELECT FROM circuit_breakers WHERE name = :breaker AND state <> 'CLOSED')""")
    int recordBreakerHold(
            String shortCode, String receiptHandle, Instant heldUntil, @Nullable Instant firstHeldAt, String breaker);

    /** How many deliveries are still held at {@code now}: the backlog a release spreads over its window. */
    @Query("""
            SELECT count(*) FROM pastes
            WHERE held_receipt_handle IS NOT NULL AND held_until > :now AND status = 'IN_PROGRESS'""")
    long countHeldDeliveries(Instant now);
}
