package dev.pastebin.upload.hold;

import dev.pastebin.core.aws.SqsProperties;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.JdbcBreakerStore;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link DeliveryStarts} in PostgreSQL: one statement in its own transaction (autocommit, one round trip). The hold is
 * an UPDATE in a {@code WITH} clause that only matches while the breaker is open long enough; the row returned is
 * the paste's as it was before it (PostgreSQL runs the whole statement on one snapshot). When this environment's
 * {@link HeldBacklog} is due a count, the same statement counts the held rows (the count of {@link
 * HeldDeliveryRepository#countHeldDeliveries}), only while the breaker is not closed. With the breaker off, only the
 * row is read.
 */
@Singleton
class JdbcDeliveryStarts implements DeliveryStarts {

    private static final String BEGIN = """
            WITH breaker AS (SELECT * FROM circuit_breakers WHERE name = ?),
            held AS (
                UPDATE pastes SET first_held_at = coalesce(pastes.first_held_at, ?), held_receipt_handle = ?,
                    held_until = ?
                FROM breaker
                WHERE pastes.short_code = ? AND pastes.status = 'IN_PROGRESS'
                  AND lower(trim(pastes.content_sha256)) = ?
                  AND breaker.state = 'OPEN' AND breaker.next_probe_at > ?
                  AND (pastes.first_held_at IS NULL OR pastes.first_held_at > ?)
                RETURNING pastes.first_held_at)
            SELECT pastes.*, %s, held.first_held_at AS held_since,
                CASE WHEN ? AND breaker.state <> 'CLOSED' THEN (
                    SELECT count(*) FROM pastes AS held_rows
                    WHERE held_rows.held_receipt_handle IS NOT NULL AND held_rows.held_until > ?
                      AND held_rows.status = 'IN_PROGRESS') END AS held_backlog
            FROM (SELECT 1) AS start
            LEFT JOIN pastes ON pastes.short_code = ?
            LEFT JOIN breaker ON true
            LEFT JOIN held ON true""".formatted(JdbcBreakerStore.columns("breaker", "breaker_"));

    private final ConnectionOperations<Connection> connections;
    private final JdbcOperations jdbc;
    private final PasteRepository repository;
    private final BreakerProperties breaker;
    private final DeliveryProperties delivery;
    private final SqsProperties sqs;
    private final HeldBacklog backlog;

    JdbcDeliveryStarts(
            ConnectionOperations<Connection> connections,
            JdbcOperations jdbc,
            PasteRepository repository,
            BreakerProperties breaker,
            DeliveryProperties delivery,
            SqsProperties sqs,
            HeldBacklog backlog) {
        this.connections = connections;
        this.jdbc = jdbc;
        this.repository = repository;
        this.breaker = breaker;
        this.delivery = delivery;
        this.sqs = sqs;
        this.backlog = backlog;
    }

    @Override
    public DeliveryStart begin(String shortCode, String contentSha256, String receiptHandle, Instant now) {
        if (!breaker.enabled()) {
            return DeliveryStart.rowOnly(repository.findById(shortCode));
        }
        EarlyHold hold = EarlyHold.at(now, breaker, delivery, sqs);
        boolean countBacklog = backlog.claimCount(now);
        return connections.executeWrite(status -> {
            try (PreparedStatement begin = status.getConnection().prepareStatement(BEGIN)) {
                begin.setString(1, hold.breaker());
                begin.setTimestamp(2, Timestamp.from(hold.now()));
                begin.setString(3, receiptHandle);
                begin.setTimestamp(4, Timestamp.from(hold.heldUntilAtMost()));
                begin.setString(5, shortCode);
                begin.setString(6, contentSha256);
                begin.setTimestamp(7, Timestamp.from(hold.probeAfter()));
                begin.setTimestamp(8, Timestamp.from(hold.firstHeldAfter()));
                begin.setBoolean(9, countBacklog);
                begin.setTimestamp(10, Timestamp.from(hold.now()));
                begin.setString(11, shortCode);
                try (ResultSet rs = begin.executeQuery()) {
                    rs.next();
                    if (countBacklog) {
                        backlog.counted(rs.getLong("held_backlog"));
                    }
                    Optional<Paste> row = rs.getString("short_code") == null
                            ? Optional.empty()
                            : Optional.of(jdbc.readEntity(rs, Paste.class));
                    BreakerSnapshot snapshot = JdbcBreakerStore.snapshot(rs, "breaker_");
                    Timestamp heldSince = rs.getTimestamp("held_since");
                    return new DeliveryStart(row, snapshot, heldSince == null ? null : heldSince.toInstant());
                }
            } catch (SQLException e) {
                throw new DataAccessException("starting the delivery of " + shortCode, e);
            }
        });
    }
}
