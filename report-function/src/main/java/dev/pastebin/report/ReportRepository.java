package dev.pastebin.report;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;

/** The report tables (V10__abuse_reports.sql), within the caller's transaction. */
@Singleton
class ReportRepository {

    void insert(Connection connection, AbuseReport report) {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO abuse_reports (code, reason, text, contact, reporter_hash)
                VALUES (?, ?, ?, ?, ?)""")) {
            insert.setString(1, report.shortCode());
            insert.setString(2, report.reason().wireName());
            setNullable(insert, 3, report.text());
            setNullable(insert, 4, report.contact());
            insert.setString(5, report.reporterHash());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new DataAccessException("storing a report of " + report.shortCode(), e);
        }
    }

    /**
     * True when this report is the one to notify the operator: the paste had no notice, or its last is at least
     * {@code interval} old. One statement decides it, so of concurrent reports exactly one wins (the others wait
     * on the row's lock, then find it recent and update nothing).
     */
    boolean claimNotice(Connection connection, String shortCode, Duration interval) {
        try (PreparedStatement claim = connection.prepareStatement("""
                INSERT INTO report_notices (code, notified_at) VALUES (?, now())
                ON CONFLICT (code) DO UPDATE SET notified_at = excluded.notified_at
                WHERE report_notices.notified_at <= excluded.notified_at - make_interval(secs => ?)
                RETURNING code""")) {
            claim.setString(1, shortCode);
            claim.setLong(2, interval.toSeconds());
            try (ResultSet claimed = claim.executeQuery()) {
                return claimed.next();
            }
        } catch (SQLException e) {
            throw new DataAccessException("claiming the report notice of " + shortCode, e);
        }
    }

    private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }
}
