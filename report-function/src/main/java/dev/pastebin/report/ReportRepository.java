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
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The report tables (V10__abuse_reports.sql, V12__report_notice_budget.sql), within the caller's transaction. Each
 * claim is one statement on one row, so concurrent reports queue on that row's lock and each sees the others'
 * committed claims: none is counted twice and no limit is overshot.
 */
@Singleton
class ReportRepository {

    void insert(Connection connection, AbuseReport report, ReportNotice notice) {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO abuse_reports (code, reason, text, contact, reporter_hash, notice)
                VALUES (?, ?, ?, ?, ?, ?)""")) {
            insert.setString(1, report.shortCode());
            insert.setString(2, report.reason().wireName());
            setNullable(insert, 3, report.text());
            setNullable(insert, 4, report.contact());
            insert.setString(5, report.reporterHash());
            insert.setString(6, notice.wireName());
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

    /**
     * True when the reporter has a notification of {@code hour} left (fewer than {@code cap} claimed), and claims it.
     * The conditional upsert updates nothing once the count is at the cap.
     */
    boolean claimReporterNotice(Connection connection, String reporterHash, Instant hour, int cap) {
        try (PreparedStatement claim = connection.prepareStatement("""
                INSERT INTO report_reporter_hours AS r (reporter_hash, hour, notices) VALUES (?, ?, 1)
                ON CONFLICT (reporter_hash, hour) DO UPDATE SET notices = r.notices + 1
                WHERE r.notices < ?
                RETURNING notices""")) {
            claim.setString(1, reporterHash);
            claim.setObject(2, utc(hour));
            claim.setInt(3, cap);
            try (ResultSet claimed = claim.executeQuery()) {
                return claimed.next();
            }
        } catch (SQLException e) {
            throw new DataAccessException("claiming a reporter's notice", e);
        }
    }

    /**
     * Counts one more claim of {@code hour}'s budget and answers which it is (1 for the hour's first) and the
     * hour's budget: the one given when the hour's row was created.
     */
    BudgetClaim claimBudget(Connection connection, Instant hour, int budget) {
        try (PreparedStatement claim = connection.prepareStatement("""
                INSERT INTO report_notice_hours AS h (hour, claims, budget) VALUES (?, 1, ?)
                ON CONFLICT (hour) DO UPDATE SET claims = h.claims + 1
                RETURNING claims, budget""")) {
            claim.setObject(1, utc(hour));
            claim.setInt(2, budget);
            try (ResultSet claimed = claim.executeQuery()) {
                claimed.next();
                return new BudgetClaim(claimed.getInt(1), claimed.getInt(2));
            }
        } catch (SQLException e) {
            throw new DataAccessException("claiming the notice budget of " + hour, e);
        }
    }

    /** The {@code claim}-th claim of an hour whose budget is {@code budget}. */
    record BudgetClaim(int claim, int budget) {

        /** Within the budget: the paste's notification is sent. */
        boolean withinBudget() {
            return claim <= budget;
        }

        /** The first claim past the budget: it sends the notice that the budget is spent. */
        boolean firstPastBudget() {
            return claim == budget + 1;
        }
    }

    /**
     * Marks the hours before {@code hour}, back to {@code since}, whose budget was overrun and whose digest was not
     * sent yet, and answers them with the number of pastes stored past each one's budget: this transaction sends
     * their digests. A row another transaction holds is skipped, not waited for (no two reports at an hour's turn
     * can deadlock on each other's rows): the holder marks it, or, if it only counted a claim, a later report does.
     */
    List<OverrunHour> claimDigests(Connection connection, Instant since, Instant hour) {
        try (PreparedStatement claim = connection.prepareStatement("""
                UPDATE report_notice_hours SET summarised = true
                WHERE hour IN (
                    SELECT hour FROM report_notice_hours
                    WHERE NOT summarised AND claims > budget AND hour >= ? AND hour < ?
                    FOR UPDATE SKIP LOCKED)
                RETURNING hour, claims - budget, budget""")) {
            claim.setObject(1, utc(since));
            claim.setObject(2, utc(hour));
            List<OverrunHour> hours = new ArrayList<>();
            try (ResultSet claimed = claim.executeQuery()) {
                while (claimed.next()) {
                    hours.add(new OverrunHour(
                            claimed.getObject(1, OffsetDateTime.class).toInstant(),
                            claimed.getInt(2),
                            claimed.getInt(3)));
                }
            }
            hours.sort(Comparator.comparing(OverrunHour::hour));
            return hours;
        } catch (SQLException e) {
            throw new DataAccessException("claiming the digests of the hours before " + hour, e);
        }
    }

    /** An hour whose budget was spent: {@code pastes} reported pastes past it were stored without a notice. */
    record OverrunHour(Instant hour, int pastes, int budget) {}

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
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
