package dev.pastebin.sweeper;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits {@link Metric#OLDEST_IN_PROGRESS_AGE} and {@link Metric#ORPHAN_IN_PROGRESS_PASTES} at the start of every
 * sweep (docs/design.md, "Observability"). The first is how long the oldest paste younger than a day has been
 * waiting for its upload. A healthy paste is stored within seconds, so minutes mean the upload path is broken,
 * whatever broke it (a wrong database password, a security group, an Init failure, S3 down): the sweeper has its
 * own role and secret, so it reports even when the upload worker reports nothing. Rows older than a day are
 * counted apart: a row no job will finish (create died before sending it, or its job cannot be decoded) stays
 * IN_PROGRESS until it is marked stuck after 18 days, and must not hold the stuck-paste alarm that long, so that
 * the next incident notifies again. A day is the upload worker's hold limit: no healthy wait is longer.
 * Both are written before the sweep's own work, so a sweep that then fails still reports them.
 */
@Singleton
public class OldestInProgressGauge {

    /**
     * One pass over the partial index on IN_PROGRESS rows by created_at (migration V3): the oldest age among the
     * rows younger than a day (0 when there is none) and the number of older ones.
     */
    static final String IN_PROGRESS_AGES = """
            SELECT coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE created_at > now() - interval '1 day')), 0),
                   count(*) FILTER (WHERE created_at <= now() - interval '1 day')
            FROM pastes WHERE status = 'IN_PROGRESS'""";

    private static final Logger LOG = LoggerFactory.getLogger(OldestInProgressGauge.class);

    private final TransactionOperations<Connection> transactions;
    private final Metrics metrics;

    public OldestInProgressGauge(TransactionOperations<Connection> transactions, Metrics metrics) {
        this.transactions = transactions;
        this.metrics = metrics;
    }

    /** What one measurement found: the oldest age of today's IN_PROGRESS rows, and how many are older than a day. */
    public record Reading(Duration oldestAge, long orphans) {}

    /**
     * Measures and writes both metrics; empty when the database could not answer. Then nothing is written: the
     * stuck-paste alarm treats a missing value as breaching, and the sweep that follows fails on the database too.
     */
    public Optional<Reading> report() {
        Reading reading;
        try {
            reading = transactions.executeRead(status -> measure(status.getConnection()));
        } catch (RuntimeException e) {
            LOG.warn("IN_PROGRESS ages not measured: {}", e.toString());
            return Optional.empty();
        }
        metrics.put(Metric.OLDEST_IN_PROGRESS_AGE, (double) reading.oldestAge().toMillis() / 1000.0);
        metrics.put(Metric.ORPHAN_IN_PROGRESS_PASTES, (double) reading.orphans());
        metrics.flush();
        if (reading.orphans() > 0) {
            LOG.warn(
                    "oldest IN_PROGRESS paste of the last day: {} s; {} IN_PROGRESS pastes older than a day",
                    reading.oldestAge().toSeconds(),
                    reading.orphans());
        } else {
            LOG.info("oldest IN_PROGRESS paste: {} s", reading.oldestAge().toSeconds());
        }
        return Optional.of(reading);
    }

    private static Reading measure(Connection connection) {
        try (PreparedStatement statement = connection.prepareStatement(IN_PROGRESS_AGES);
                ResultSet row = statement.executeQuery()) {
            row.next();
            return new Reading(Duration.ofMillis(Math.round(row.getDouble(1) * 1000)), row.getLong(2));
        } catch (SQLException e) {
            throw new SweepService.SweepFailedException("IN_PROGRESS age query failed: " + e.getMessage(), e);
        }
    }
}
