package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.transaction.TransactionOperations;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The stuck-paste gauge against the real PostgreSQL, in a database of its own: it reads the whole table, so
 * its value is only exact where no other test's rows are. Ages are set by SQL, never by waiting.
 */
@RealServices
@OwnDatabase("sweeper_gauge")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OldestInProgressGaugeIT {

    private ApplicationContext context;
    private DataSource dataSource;

    @BeforeAll
    void start() {
        context = ApplicationContext.run("test");
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }

    @AfterAll
    void stop() {
        context.close();
    }

    @BeforeEach
    void noPastes() throws SQLException {
        execute("DELETE FROM pastes");
    }

    @Test
    void reportsTheAgeOfTheOldestInProgressPasteOnly() throws SQLException {
        insert("done-old", "PROCESSED", "3 hours");
        insert("failed-old", "FAILED", "2 hours");
        insert("pending-11m", "IN_PROGRESS", "11 minutes");
        insert("pending-now", "IN_PROGRESS", "1 second");

        double seconds = reported();

        assertTrue(seconds >= 660 && seconds < 670, "the 11-minute-old paste, not the older terminal ones: " + seconds);
    }

    /**
     * A row left IN_PROGRESS with no job (create died between its INSERT and its SendMessage) must not hold the
     * stuck-paste alarm for the 18 days until it is marked stuck: the gauge sees today's incident only.
     */
    @Test
    void anOrphanRowOlderThanADayDoesNotHideTodaysIncident() throws SQLException {
        insert("orphan-3d", "IN_PROGRESS", "3 days");
        insert("pending-11m", "IN_PROGRESS", "11 minutes");

        double seconds = reported();

        assertTrue(seconds >= 660 && seconds < 670, "the 11-minute-old paste, not the 3-day-old orphan: " + seconds);
        assertEquals(1.0, reportedOrphans(), "the orphan has its own metric");
    }

    @Test
    void countsOnlyInProgressRowsOlderThanADayAsOrphans() throws SQLException {
        insert("failed-3d", "FAILED", "3 days");
        insert("done-3d", "PROCESSED", "3 days");
        insert("pending-23h", "IN_PROGRESS", "23 hours");
        insert("orphan-25h", "IN_PROGRESS", "25 hours");
        insert("orphan-17d", "IN_PROGRESS", "17 days");

        assertEquals(2.0, reportedOrphans());
        double seconds = reported();
        assertTrue(
                seconds >= 23 * 3600 && seconds < 23 * 3600 + 10, "the 23-hour-old paste is still today's: " + seconds);
    }

    @Test
    void reportsZeroWhenNoPasteIsPending() throws SQLException {
        insert("done", "PROCESSED", "3 hours");

        assertEquals(0.0, reported());
        assertEquals(0.0, reportedOrphans());
    }

    @Test
    void readsThePartialIndexNotTheTable() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("SET enable_seqscan = off");
            var plan = s.executeQuery("EXPLAIN " + OldestInProgressGauge.IN_PROGRESS_AGES);
            StringBuilder text = new StringBuilder();
            while (plan.next()) {
                text.append(plan.getString(1)).append('\n');
            }
            assertTrue(text.toString().contains("pastes_in_progress_created_at"), text.toString());
        }
    }

    /** The value of the one OldestInProgressAge line a report wrote. */
    private double reported() {
        return reported(Metric.OLDEST_IN_PROGRESS_AGE);
    }

    private double reportedOrphans() {
        return reported(Metric.ORPHAN_IN_PROGRESS_PASTES);
    }

    @SuppressWarnings("unchecked")
    private double reported(Metric metric) {
        CapturedMetrics emitted = new CapturedMetrics();
        new OldestInProgressGauge(context.getBean(TransactionOperations.class), emitted.metrics("sweeper")).report();
        List<Map<String, Object>> lines = new EmfSpec(Set.of()).validate(emitted.lines(), Set.of());
        List<Double> values = EmfSpec.values(lines, metric, Map.of("Service", "sweeper"));
        assertEquals(1, values.size(), emitted.lines().toString());
        return values.getFirst();
    }

    private void insert(String code, String status, String age) throws SQLException {
        execute(
                "INSERT INTO pastes (short_code, content_sha256, size_bytes, status, s3_location, failure_reason, created_at, updated_at)"
                        + " VALUES ('" + code + "', repeat('a', 64), 7, '" + status + "', "
                        + ("PROCESSED".equals(status) ? "'s3://bucket/pastes/" + code + "'" : "NULL") + ", "
                        + ("FAILED".equals(status) ? "'test'" : "NULL")
                        + ", now() - interval '" + age + "', now() - interval '" + age + "')");
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
