package dev.pastebin.core.paste;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.time.Instant;
import java.util.List;

/**
 * The held deliveries noted on the pastes' rows, for release on close (docs/design.md, "Circuit breaker"): which
 * message each held upload job made invisible, until when. A paste leaving IN_PROGRESS forgets its own
 * ({@link PasteRepository#markProcessed}, {@link PasteRepository#markFailed}).
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface HeldDeliveryRepository extends GenericRepository<Paste, String> {

    /**
     * Notes the message a hold made invisible and when that hold ends, replacing an earlier hold's: the probe
     * that closes the breaker releases it (docs/design.md, "Circuit breaker"). Not a transition either.
     */
    @Query("""
            UPDATE pastes SET held_receipt_handle = :receiptHandle, held_until = :heldUntil
            WHERE short_code = :shortCode AND status = 'IN_PROGRESS'""")
    int recordHeldDelivery(String shortCode, String receiptHandle, Instant heldUntil);

    /** Up to {@code limit} deliveries still held at {@code now}, the longest waiting first. */
    @Query("""
            SELECT short_code, held_receipt_handle, held_until FROM pastes
            WHERE held_receipt_handle IS NOT NULL AND held_until > :now AND status = 'IN_PROGRESS'
            ORDER BY first_held_at NULLS LAST, short_code LIMIT :limit""")
    List<HeldDelivery> findHeldDeliveries(Instant now, int limit);

    /** How many deliveries are still held at {@code now}: the backlog a release spreads over its window. */
    @Query("""
            SELECT count(*) FROM pastes
            WHERE held_receipt_handle IS NOT NULL AND held_until > :now AND status = 'IN_PROGRESS'""")
    long countHeldDeliveries(Instant now);

    /**
     * Forgets these receipt handles (released, stale, or back soon by themselves); a row held again since keeps its
     * newer handle.
     */
    @Query("""
            UPDATE pastes SET held_receipt_handle = NULL, held_until = NULL
            WHERE short_code IN (:shortCodes) AND held_receipt_handle IN (:receiptHandles)""")
    int forgetHeldDeliveries(List<String> shortCodes, List<String> receiptHandles);
}
