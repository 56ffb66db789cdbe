package dev.pastebin.sweeper;

import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sweeper's statements. Each picks a bounded batch through its partial index (FAILED rows by
 * {@code updated_at}, IN_PROGRESS rows by {@code created_at}, expiring rows by {@code expires_at}, idempotency keys
 * by {@code created_at}) with {@code FOR UPDATE SKIP LOCKED}: a row another
 * sweeper (or an upload finishing right now) holds is skipped, never waited for, and no row can be taken by
 * two sweepers. Ages are compared with the database's clock. The caller owns the connection and its transaction.
 *
 * <p>A FAILED row's {@code updated_at} is when it became FAILED: transitions only ever move IN_PROGRESS rows, so
 * nothing updates a terminal row again.
 */
@Singleton
public class SweepRepository {

    static final String DELETE_EXPIRED_FAILED = """
            DELETE FROM pastes WHERE short_code IN (
                SELECT short_code FROM pastes
                WHERE status = 'FAILED' AND updated_at < now() - make_interval(secs => ?)
                ORDER BY updated_at LIMIT ?
                FOR UPDATE SKIP LOCKED)
            RETURNING short_code, s3_location,
                (SELECT array_agg(f.file_id) FROM paste_files f WHERE f.short_code = pastes.short_code)""";

    // status is checked again in the outer UPDATE: the guarded-transition rule of the state machine.
    static final String MARK_STUCK_FAILED = """
            UPDATE pastes SET status = 'FAILED', failure_reason = 'stuck', updated_at = now()
            WHERE short_code IN (
                SELECT short_code FROM pastes
                WHERE status = 'IN_PROGRESS' AND created_at < now() - make_interval(secs => ?)
                ORDER BY created_at LIMIT ?
                FOR UPDATE SKIP LOCKED)
            AND status = 'IN_PROGRESS'""";

    /**
     * A large paste still IN_PROGRESS with a file not verified one upload window (plus a grace for the worker) after
     * its create: its files did not all arrive in time (docs/design.md, "Large files: straight to S3").
     */
    static final String MARK_LARGE_OVERDUE_FAILED = """
            UPDATE pastes SET status = 'FAILED', failure_reason = 'files did not arrive within the upload window',
                updated_at = now()
            WHERE short_code IN (
                SELECT p.short_code FROM pastes p
                WHERE p.status = 'IN_PROGRESS' AND p.created_at < now() - make_interval(secs => ?)
                  AND EXISTS (SELECT 1 FROM paste_files f WHERE f.short_code = p.short_code AND f.state = 'STAGED')
                ORDER BY p.created_at LIMIT ?
                FOR UPDATE SKIP LOCKED)
            AND status = 'IN_PROGRESS'
            RETURNING short_code,
                (SELECT array_agg(f.file_id) FROM paste_files f WHERE f.short_code = pastes.short_code)""";

    /**
     * An expired row the sweeper deletes now: any, except a read-once large paste (one with file rows) whose expiry,
     * its reveal's burn, is more recent than the links the reveal handed out may still be used (its parameter: their
     * validity in seconds); its files go once those links have expired (docs/design.md, "Reading once").
     */
    static final String EXPIRED_TO_DELETE = """
            expires_at <= now()
                AND (NOT read_once OR expires_at <= now() - make_interval(secs => ?)
                    OR NOT EXISTS (SELECT 1 FROM paste_files f WHERE f.short_code = pastes.short_code))""";

    /** Expired pastes in any state: expiry is not a state, it removes the paste (docs/design.md, "Expiry"). */
    static final String DELETE_EXPIRED = """
            DELETE FROM pastes WHERE short_code IN (
                SELECT short_code FROM pastes
                WHERE %s
                ORDER BY expires_at LIMIT ?
                FOR UPDATE SKIP LOCKED)
            RETURNING short_code, s3_location,
                (SELECT array_agg(f.file_id) FROM paste_files f WHERE f.short_code = pastes.short_code)""".formatted(EXPIRED_TO_DELETE);

    static final String DELETE_OLD_IDEMPOTENCY_KEYS = """
            DELETE FROM idempotency_keys WHERE (caller, idempotency_key) IN (
                SELECT caller, idempotency_key FROM idempotency_keys
                WHERE created_at <= now() - make_interval(secs => ?)
                ORDER BY created_at LIMIT ?
                FOR UPDATE SKIP LOCKED)""";

    /** Abuse reports past their retention; the notices of pastes with no report left go with them. */
    static final String DELETE_OLD_REPORTS = """
            DELETE FROM abuse_reports WHERE id IN (
                SELECT id FROM abuse_reports
                WHERE reported_at <= now() - make_interval(secs => ?)
                ORDER BY reported_at LIMIT ?
                FOR UPDATE SKIP LOCKED)""";

    static final String DELETE_OLD_REPORT_NOTICES = """
            DELETE FROM report_notices WHERE code IN (
                SELECT code FROM report_notices
                WHERE notified_at <= now() - make_interval(secs => ?)
                ORDER BY notified_at LIMIT ?
                FOR UPDATE SKIP LOCKED)""";

    /** The counters of the hourly notification budget and of each reporter's notifications, past the retention. */
    static final String DELETE_OLD_REPORT_NOTICE_HOURS = """
            DELETE FROM report_notice_hours WHERE hour IN (
                SELECT hour FROM report_notice_hours
                WHERE hour <= now() - make_interval(secs => ?)
                ORDER BY hour LIMIT ?
                FOR UPDATE SKIP LOCKED)""";

    static final String DELETE_OLD_REPORTER_HOURS = """
            DELETE FROM report_reporter_hours WHERE (reporter_hash, hour) IN (
                SELECT reporter_hash, hour FROM report_reporter_hours
                WHERE hour <= now() - make_interval(secs => ?)
                ORDER BY hour LIMIT ?
                FOR UPDATE SKIP LOCKED)""";

    static final String ANY_LEFT = """
            SELECT EXISTS (SELECT 1 FROM pastes WHERE status = 'FAILED' AND updated_at < now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM pastes WHERE status = 'IN_PROGRESS' AND created_at < now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM pastes WHERE %s)
                OR EXISTS (SELECT 1 FROM idempotency_keys WHERE created_at <= now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM abuse_reports WHERE reported_at <= now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM report_notices WHERE notified_at <= now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM report_notice_hours WHERE hour <= now() - make_interval(secs => ?))
                OR EXISTS (SELECT 1 FROM report_reporter_hours WHERE hour <= now() - make_interval(secs => ?))""".formatted(EXPIRED_TO_DELETE);

    static final String EXISTING_CODES = "SELECT short_code FROM pastes WHERE short_code = ANY (?)";

    /** Which of {@code codes} have a row (in any state). */
    public Set<String> existingCodes(Connection connection, List<String> codes) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(EXISTING_CODES)) {
            statement.setArray(1, connection.createArrayOf("text", codes.toArray()));
            Set<String> existing = new HashSet<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    existing.add(rows.getString(1));
                }
            }
            return existing;
        }
    }

    /** Deletes up to {@code limit} rows that became FAILED more than {@code retention} ago and returns them. */
    public List<SweptPaste> deleteExpiredFailed(Connection connection, Duration retention, int limit)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(DELETE_EXPIRED_FAILED)) {
            statement.setDouble(1, seconds(retention));
            statement.setInt(2, limit);
            return swept(statement, limit);
        }
    }

    private static List<SweptPaste> swept(PreparedStatement deleteReturning, int limit) throws SQLException {
        List<SweptPaste> deleted = new ArrayList<>(limit);
        try (ResultSet rows = deleteReturning.executeQuery()) {
            while (rows.next()) {
                java.sql.Array files = rows.getArray(3);
                deleted.add(new SweptPaste(
                        rows.getString(1),
                        rows.getString(2),
                        files == null ? List.of() : List.of((String[]) files.getArray())));
            }
        }
        return deleted;
    }

    /**
     * Deletes up to {@code limit} pastes whose expiry has passed, whatever their state, and returns them; a burnt
     * read-once large paste only once {@code linkValidity} has passed since ({@link #EXPIRED_TO_DELETE}).
     */
    public List<SweptPaste> deleteExpired(Connection connection, Duration linkValidity, int limit) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(DELETE_EXPIRED)) {
            statement.setDouble(1, seconds(linkValidity));
            statement.setInt(2, limit);
            return swept(statement, limit);
        }
    }

    static final String DELETE_OLD_TAKEDOWNS = """
            DELETE FROM takedowns WHERE short_code IN (
                SELECT short_code FROM takedowns WHERE taken_down_at <= now() - make_interval(secs => ?) LIMIT ?)""";

    static final String DELETE_OLD_MODERATION_AUDIT = """
            DELETE FROM moderation_audit WHERE id IN (
                SELECT id FROM moderation_audit WHERE acted_at <= now() - make_interval(secs => ?) LIMIT ?)""";

    /**
     * Deletes up to {@code limit} takedown tombstones and up to {@code limit} moderation audit entries older than
     * {@code retention} (each statement reads its table's time index); returns how many in all. Moderation is an
     * operator's pace: one batch a run keeps up.
     */
    public int deleteOldModeration(Connection connection, Duration retention, int limit) throws SQLException {
        int deleted = 0;
        for (String sql : List.of(DELETE_OLD_TAKEDOWNS, DELETE_OLD_MODERATION_AUDIT)) {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setDouble(1, seconds(retention));
                statement.setInt(2, limit);
                deleted += statement.executeUpdate();
            }
        }
        return deleted;
    }

    /** Deletes up to {@code limit} idempotency keys older than {@code retention}; returns how many. */
    public int deleteOldIdempotencyKeys(Connection connection, Duration retention, int limit) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(DELETE_OLD_IDEMPOTENCY_KEYS)) {
            statement.setDouble(1, seconds(retention));
            statement.setInt(2, limit);
            return statement.executeUpdate();
        }
    }

    /**
     * Deletes up to {@code limit} abuse reports, up to {@code limit} report notices and up to {@code limit} of each
     * kind of hourly notice counter older than {@code retention}; returns how many of each, together.
     */
    public int deleteOldReports(Connection connection, Duration retention, int limit) throws SQLException {
        int deleted = 0;
        for (String sql : new String[] {
            DELETE_OLD_REPORTS, DELETE_OLD_REPORT_NOTICES, DELETE_OLD_REPORT_NOTICE_HOURS, DELETE_OLD_REPORTER_HOURS
        }) {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setDouble(1, seconds(retention));
                statement.setInt(2, limit);
                deleted += statement.executeUpdate();
            }
        }
        return deleted;
    }

    /**
     * Marks up to {@code limit} large pastes whose files are not all verified {@code overdueAfter} after their create
     * FAILED; returns them, with their file ids (their staged objects are deleted at once, not after the retention).
     */
    public List<SweptPaste> markLargeOverdueFailed(Connection connection, Duration overdueAfter, int limit)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(MARK_LARGE_OVERDUE_FAILED)) {
            statement.setDouble(1, seconds(overdueAfter));
            statement.setInt(2, limit);
            List<SweptPaste> failed = new ArrayList<>(limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    java.sql.Array files = rows.getArray(2);
                    failed.add(new SweptPaste(
                            rows.getString(1), null, files == null ? List.of() : List.of((String[]) files.getArray())));
                }
            }
            return failed;
        }
    }

    /** Marks up to {@code limit} IN_PROGRESS rows created more than {@code stuckAfter} ago FAILED; returns how many. */
    public int markStuckFailed(Connection connection, Duration stuckAfter, int limit) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(MARK_STUCK_FAILED)) {
            statement.setDouble(1, seconds(stuckAfter));
            statement.setInt(2, limit);
            return statement.executeUpdate();
        }
    }

    /**
     * True when any FAILED row past its retention, stuck IN_PROGRESS row, expired paste, old idempotency key, or
     * abuse report, notice or hourly notice counter past its retention is still there (locked ones included).
     */
    public boolean anyLeft(
            Connection connection,
            Duration retention,
            Duration stuckAfter,
            Duration linkValidity,
            Duration keyRetention,
            Duration reportRetention)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(ANY_LEFT)) {
            statement.setDouble(1, seconds(retention));
            statement.setDouble(2, seconds(stuckAfter));
            statement.setDouble(3, seconds(linkValidity));
            statement.setDouble(4, seconds(keyRetention));
            statement.setDouble(5, seconds(reportRetention));
            statement.setDouble(6, seconds(reportRetention));
            statement.setDouble(7, seconds(reportRetention));
            statement.setDouble(8, seconds(reportRetention));
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }

    /**
     * Advances the sweep epoch past both the database's and the marker's (the parameter, twice), unless the
     * database's is behind the marker's and no operator acknowledged it; spends the acknowledgement. The row's own
     * values decide (rechecked on the locked row); {@code previous} only reports what they were.
     */
    static final String ADVANCE_EPOCH = """
            WITH previous AS (SELECT epoch FROM sweeper_epoch)
            UPDATE sweeper_epoch SET epoch = GREATEST(sweeper_epoch.epoch, ?) + 1, restore_acknowledged = false,
                updated_at = now()
            FROM previous
            WHERE sweeper_epoch.epoch >= ? OR sweeper_epoch.restore_acknowledged
            RETURNING previous.epoch, sweeper_epoch.epoch""";

    static final String EPOCH = "SELECT epoch FROM sweeper_epoch";

    /** A sweep epoch advanced: the database's before, and the new one. */
    record AdvancedEpoch(long previous, long epoch) {}

    /**
     * The sweep epoch advanced past {@code marker} (migration V13), or empty, and nothing changed, when the
     * database's epoch is behind it and no operator acknowledged that: the database went back in time.
     */
    public Optional<AdvancedEpoch> advanceEpoch(Connection connection, long marker) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(ADVANCE_EPOCH)) {
            statement.setLong(1, marker);
            statement.setLong(2, marker);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(new AdvancedEpoch(row.getLong(1), row.getLong(2))) : Optional.empty();
            }
        }
    }

    /** The database's sweep epoch. */
    public long epoch(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(EPOCH);
                ResultSet row = statement.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("sweeper_epoch has no row: the migration V13 inserts it and nothing deletes it");
            }
            return row.getLong(1);
        }
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
