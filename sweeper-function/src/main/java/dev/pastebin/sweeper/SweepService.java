package dev.pastebin.sweeper;

import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sweep (docs/design.md, "What happens to FAILED rows"), in this order: re-evaluates the dead letters
 * ({@link DeadLetterService}), so a job that can still complete is back in the upload queue before any row is
 * judged; marks IN_PROGRESS rows FAILED (reason {@code stuck}) once no job for them can be delivered any more;
 * deletes expired pastes in any state, then rows that have been FAILED for longer than the retention, together
 * with their S3 objects; deletes idempotency keys older than their 24 h; then advances the sweep epoch and
 * removes the S3 objects no row names, unless the database went back in time ({@link OrphanObjects}). Rows are
 * handled in bounded batches, each its own short transaction, and no batch starts once the deadline is near;
 * what is left is reported and a later run finishes it.
 *
 * <p>A delete batch commits only after S3 confirmed its objects are gone: if S3 fails, the rows come back
 * and the next run retries, so an object is never orphaned by a row that no longer exists. The row locks
 * are held for one DeleteObjects call, and no other writer touches an old FAILED row.
 */
@Singleton
public class SweepService {

    private static final Logger LOG = LoggerFactory.getLogger(SweepService.class);

    private final DeadLetterService deadLetters;
    private final OrphanObjects orphanObjects;
    private final SweepRepository repository;
    private final PasteContentStore contentStore;
    private final TransactionOperations<Connection> transactions;
    private final SweeperProperties properties;
    private final LargeFileStore largeFiles;
    private final Metrics metrics;

    /**
     * How long past its upload window a large paste's last file may take to be verified: the queue's pickup and the
     * worker's retries of a blip. A longer S3 outage can outlast it, and a file that did arrive is then failed with
     * its paste: the client uploads again.
     */
    static final java.time.Duration LARGE_UPLOAD_GRACE = java.time.Duration.ofHours(1);

    SweepService(
            DeadLetterService deadLetters,
            OrphanObjects orphanObjects,
            SweepRepository repository,
            PasteContentStore contentStore,
            TransactionOperations<Connection> transactions,
            SweeperProperties properties,
            LargeFileStore largeFiles,
            Metrics metrics) {
        this.largeFiles = largeFiles;
        this.deadLetters = deadLetters;
        this.orphanObjects = orphanObjects;
        this.repository = repository;
        this.contentStore = contentStore;
        this.transactions = transactions;
        this.properties = properties;
        this.metrics = metrics;
    }

    public SweepReport sweep(Deadline deadline) {
        DeadLetterReport letters = deadLetters.reevaluate(deadline);

        int batchSize = properties.batchSize();
        int batches = 0;
        int stuck = 0;
        boolean stuckDone = false;
        while (!stuckDone && deadline.allowsMoreWork()) {
            int marked = transactions.executeWrite(status ->
                    sql(() -> repository.markStuckFailed(status.getConnection(), properties.stuckAfter(), batchSize)));
            batches++;
            stuck += marked;
            stuckDone = marked < batchSize;
        }

        // Large pastes whose files did not all arrive within the upload window (docs/design.md, "Large files: straight
        // to S3"): FAILED, and their staged objects deleted now, the object deletes in the rows' transaction
        int overdue = 0;
        boolean overdueDone = false;
        while (!overdueDone && deadline.allowsMoreWork()) {
            int[] batch = transactions.executeWrite(status -> {
                List<SweptPaste> failed = sql(() -> repository.markLargeOverdueFailed(
                        status.getConnection(),
                        largeFiles.properties().uploadWindow().plus(LARGE_UPLOAD_GRACE),
                        batchSize));
                Set<ContentLocation> staged = new LinkedHashSet<>();
                failed.forEach(row -> staged.addAll(largeFiles.locationsOf(row.fileIds())));
                return new int[] {failed.size(), staged.isEmpty() ? 0 : contentStore.deleteAll(staged)};
            });
            batches++;
            overdue += batch[0];
            overdueDone = batch[0] < batchSize;
        }
        if (overdue > 0) {
            LOG.info("{} large pastes FAILED: their files did not arrive within the upload window", overdue);
        }

        // Expiry before housekeeping: an expired paste's content must be gone within the hour (docs/design.md,
        // "Expiry"); a FAILED row past its retention is unreadable and can wait for the next run.
        int removed = 0;
        int expired = 0;
        boolean expiredDone = false;
        while (!expiredDone && deadline.allowsMoreWork()) {
            int[] batch = deleteWithObjects(connection ->
                    repository.deleteExpired(connection, largeFiles.properties().readLinkValidity(), batchSize));
            batches++;
            expired += batch[0];
            removed += batch[1];
            expiredDone = batch[0] < batchSize;
        }

        int deleted = 0;
        boolean deleteDone = false;
        while (stuckDone && !deleteDone && deadline.allowsMoreWork()) {
            int[] batch = deleteWithObjects(
                    connection -> repository.deleteExpiredFailed(connection, properties.failedRetention(), batchSize));
            batches++;
            deleted += batch[0];
            removed += batch[1];
            deleteDone = batch[0] < batchSize;
        }

        int keys = 0;
        boolean keysDone = false;
        while (!keysDone && deadline.allowsMoreWork()) {
            int batch = transactions.executeWrite(status -> sql(() ->
                    repository.deleteOldIdempotencyKeys(status.getConnection(), IdempotencyKey.RETENTION, batchSize)));
            batches++;
            keys += batch;
            keysDone = batch < batchSize;
        }

        int reports = 0;
        boolean reportsDone = false;
        while (!reportsDone && deadline.allowsMoreWork()) {
            int batch = transactions.executeWrite(status -> sql(() ->
                    repository.deleteOldReports(status.getConnection(), properties.reportRetention(), batchSize)));
            batches++;
            reports += batch;
            reportsDone = batch < batchSize;
        }

        if (deadline.allowsMoreWork()) {
            int moderation = transactions.executeWrite(status -> sql(() -> repository.deleteOldModeration(
                    status.getConnection(), properties.moderationRetention(), batchSize)));
            if (moderation > 0) {
                LOG.info(
                        "deleted {} takedown tombstones and moderation audit entries past their retention", moderation);
            }
        }

        OrphanObjects.Report orphans =
                deadline.allowsMoreWork() ? orphanObjects.reconcile(deadline) : OrphanObjects.Report.NONE;

        // Locked rows (a concurrent sweeper's) are skipped, so a short batch does not prove nothing is left.
        boolean rowsLeft = !(stuckDone && deleteDone && expiredDone && keysDone && reportsDone)
                || transactions.executeRead(status -> sql(() -> repository.anyLeft(
                        status.getConnection(),
                        properties.failedRetention(),
                        properties.stuckAfter(),
                        largeFiles.properties().readLinkValidity(),
                        IdempotencyKey.RETENTION,
                        properties.reportRetention())));
        SweepReport report = new SweepReport(
                letters,
                deleted,
                expired,
                keys,
                removed,
                stuck,
                orphans.checked(),
                orphans.removed(),
                orphans.stopped(),
                orphans.databaseRestored(),
                reports,
                batches,
                letters.remaining() || rowsLeft);
        LOG.info(
                "sweep finished: deadLettersRequeued={} deadLettersDeleted={} deadLettersKept={} deleted={} "
                        + "expiredDeleted={} idempotencyKeysDeleted={} objectsRemoved={} stuckMarkedFailed={} "
                        + "objectsChecked={} orphanObjectsRemoved={} orphanGuardStopped={} databaseRestored={} "
                        + "abuseReportsDeleted={} "
                        + "batches={} remaining={}",
                letters.requeued(),
                letters.deleted(),
                letters.kept(),
                report.deleted(),
                report.expiredDeleted(),
                report.idempotencyKeysDeleted(),
                report.objectsRemoved(),
                report.stuckMarkedFailed(),
                report.objectsChecked(),
                report.orphanObjectsRemoved(),
                report.orphanGuardStopped(),
                report.databaseRestored(),
                report.abuseReportsDeleted(),
                report.batches(),
                report.remaining());
        report.record(metrics);
        metrics.flush();
        return report;
    }

    /**
     * One batch of row deletions and their objects in one transaction, committed only after S3 confirmed the
     * objects are gone; returns {rows deleted, keys removed}.
     */
    private int[] deleteWithObjects(SqlBatch<List<SweptPaste>> deleteRows) {
        return transactions.executeWrite(status -> {
            List<SweptPaste> rows = sql(() -> deleteRows.run(status.getConnection()));
            int objectsRemoved = rows.isEmpty() ? 0 : contentStore.deleteAll(locationsOf(rows));
            return new int[] {rows.size(), objectsRemoved};
        });
    }

    private interface SqlBatch<T> {
        T run(Connection connection) throws SQLException;
    }

    private Set<ContentLocation> locationsOf(List<SweptPaste> rows) {
        Set<ContentLocation> locations = new LinkedHashSet<>();
        rows.forEach(row -> {
            locations.addAll(contentStore.locationsOf(row.shortCode(), row.s3Location()));
            // a large paste's files, staged or verified (docs/design.md, "Large files: straight to S3")
            locations.addAll(largeFiles.locationsOf(row.fileIds()));
        });
        return locations;
    }

    private interface SqlCall<T> {
        T call() throws SQLException;
    }

    private static <T> T sql(SqlCall<T> call) {
        try {
            return call.call();
        } catch (SQLException e) {
            throw new SweepFailedException("sweep statement failed: " + e.getMessage(), e);
        }
    }

    /** A sweep statement failed; the current batch was rolled back. */
    public static class SweepFailedException extends RuntimeException {
        SweepFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
