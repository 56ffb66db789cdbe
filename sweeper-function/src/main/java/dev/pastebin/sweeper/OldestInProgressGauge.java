package dev.pastebin.sweeper;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * Emits {@link Metric#OLDEST_IN_PROGRESS_AGE} at the start of every sweep (docs/design.md, "Observability"):
 * how long the oldest paste has been waiting for its upload. A healthy paste is stored within seconds, so
 * minutes mean the upload path is broken, whatever broke it (a wrong database password, a security group, an
 * Init failure, S3 down): the sweeper has its own role and secret, so it reports even when the upload worker
 * reports nothing. It is written before the sweep's own work, so a sweep that then fails still reports it.
 */
@Singleton
public class OldestInProgressGauge {

    /** One row from the partial index on IN_PROGRESS rows by created_at (migration V3); 0 when there is none. */
    static final String OLDEST_IN_PROGRESS_AGE = """
            SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)
            FROM pastes WHERE status = 'IN_PROGRESS'""";

    private static final Logger LOG = LoggerFactory.getLogger(OldestInProgressGauge.class);

    private final TransactionOperations<Connection> transactions;
    private final Metrics metrics;

    public OldestInProgressGauge(TransactionOperations<Connection> transactions, Metrics metrics) {
        this.transactions = transactions;
        this.metrics = metrics;
    }

    /**
     * Measures and writes the gauge; empty when the database could not answer. Then nothing is written: the
     * alarm treats a missing value as breaching, and the sweep that follows fails on the database too.
     */
    public Optional<Duration> report() {
        Duration age;
        try {
            age = transactions.executeRead(status -> oldestAge(status.getConnection()));
        } catch (RuntimeException e) {
            LOG.warn("oldest IN_PROGRESS age not measured: {}", e.toString());
            return Optional.empty();
        }
        metrics.put(Metric.OLDEST_IN_PROGRESS_AGE, age.toMillis() / 1000.0);
        metrics.flush();
        LOG.info("oldest IN_PROGRESS paste: {} s", age.toSeconds());
        return Optional.of(age);
    }

    private static Duration oldestAge(Connection connection) {
        try (PreparedStatement statement = connection.prepareStatement(OLDEST_IN_PROGRESS_AGE);
             ResultSet row = statement.executeQuery()) {
            row.next();
            return Duration.ofMillis(Math.round(row.getDouble(1) * 1000));
        } catch (SQLException e) {
            throw new SweepService.SweepFailedException("oldest IN_PROGRESS age query failed: " + e.getMessage(), e);
        }
    }
}
