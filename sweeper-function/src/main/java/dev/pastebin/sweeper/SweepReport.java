package dev.pastebin.sweeper;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.serde.annotation.Serdeable;

/**
 * What one sweep did.
 *
 * @param deadLetters       what the re-evaluation of the dead-letter queue did (it runs first)
 * @param deleted           FAILED rows deleted
 * @param expiredDeleted    expired pastes deleted (any state)
 * @param idempotencyKeysDeleted idempotency keys deleted after their retention
 * @param objectsRemoved    S3 keys deleted for those rows (S3 confirms a delete of an absent key too, so this
 *                          counts keys cleared, not objects that existed)
 * @param stuckMarkedFailed IN_PROGRESS rows moved to FAILED with reason {@code stuck}
 * @param objectsChecked    S3 keys under the paste prefix listed by the reconciliation
 * @param orphanObjectsRemoved of those, the keys no row names, deleted
 * @param orphanGuardStopped true when the reconciliation stopped before deleting a page whose orphans were an
 *                          implausible share ({@link OrphanObjects}): a restored or wrong database
 * @param databaseRestored  true when the reconciliation refused to start because the database's sweep epoch is
 *                          behind the bucket's marker ({@link OrphanObjects}): the database went back in time, and
 *                          no object is deleted until an operator acknowledges it
 * @param abuseReportsDeleted abuse reports, report notices and hourly notice counters deleted after their retention
 * @param batches           statements run (stuck and delete batches together)
 * @param remaining         true when work was left for a later run (the deadline or the dead-letter limit came
 *                          first, or rows were locked by a concurrent sweeper)
 */
@Serdeable
public record SweepReport(
        DeadLetterReport deadLetters,
        int deleted,
        int expiredDeleted,
        int idempotencyKeysDeleted,
        int objectsRemoved,
        int stuckMarkedFailed,
        int objectsChecked,
        int orphanObjectsRemoved,
        boolean orphanGuardStopped,
        boolean databaseRestored,
        int abuseReportsDeleted,
        int batches,
        boolean remaining) {

    /** The counts as metrics, zeros included: a sweep that did nothing is a data point, not a gap. */
    void record(Metrics metrics) {
        metrics.put(Metric.DELETED, deleted);
        metrics.put(Metric.EXPIRED_DELETED, expiredDeleted);
        metrics.put(Metric.IDEMPOTENCY_KEYS_DELETED, idempotencyKeysDeleted);
        metrics.put(Metric.STUCK_MARKED_FAILED, stuckMarkedFailed);
        metrics.put(Metric.OBJECTS_REMOVED, objectsRemoved);
        metrics.put(Metric.ORPHAN_OBJECTS_REMOVED, orphanObjectsRemoved);
        metrics.put(Metric.ORPHAN_GUARD_STOPS, orphanGuardStopped ? 1 : 0);
        metrics.put(Metric.DATABASE_RESTORED, databaseRestored ? 1 : 0);
        metrics.put(Metric.DEAD_LETTERS_REQUEUED, deadLetters.requeued());
        metrics.put(Metric.DEAD_LETTERS_DELETED, deadLetters.deleted());
        metrics.put(Metric.DEAD_LETTERS_KEPT, deadLetters.kept());
        metrics.put(Metric.ABUSE_REPORTS_DELETED, abuseReportsDeleted);
    }
}
