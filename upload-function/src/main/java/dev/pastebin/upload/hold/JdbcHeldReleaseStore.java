package dev.pastebin.upload.hold;

import dev.pastebin.core.paste.HeldDelivery;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The release's progress in PostgreSQL: the {@code release_*} columns of the breaker's row in
 * {@code circuit_breakers} (migration V11) and the held deliveries noted on the pastes' rows (V8). Each method is one
 * statement in its own transaction (autocommit: one round trip), so the breaker's row, which the whole fleet reads,
 * is locked only while the server runs it.
 */
@Singleton
public class JdbcHeldReleaseStore implements HeldReleaseStore {

    /**
     * One statement: the page is the oldest held rows nobody else has locked ({@code SKIP LOCKED}), only while the
     * release of this close is still the breaker's; their handles are forgotten and the release's position moves
     * past them. Its answer: the position before the page, then the page (one row without a paste when none was held).
     */
    private static final String TAKE = """
            WITH release AS (
                SELECT name FROM circuit_breakers WHERE name = ? AND state = 'CLOSED' AND release_from = ?),
            page AS (
                SELECT short_code, held_receipt_handle, held_until, first_held_at FROM pastes
                WHERE held_receipt_handle IS NOT NULL AND held_until > ? AND status = 'IN_PROGRESS'
                  AND EXISTS (SELECT FROM release)
                ORDER BY first_held_at NULLS LAST, short_code LIMIT ?
                FOR UPDATE SKIP LOCKED),
            taken AS (
                UPDATE pastes SET held_receipt_handle = NULL, held_until = NULL FROM page
                WHERE pastes.short_code = page.short_code
                RETURNING page.short_code, page.held_receipt_handle, page.held_until, page.first_held_at),
            advanced AS (
                UPDATE circuit_breakers SET release_position = release_position + (SELECT count(*) FROM taken)
                WHERE name = (SELECT name FROM release)
                RETURNING release_position)
            SELECT advanced.release_position - (SELECT count(*) FROM taken),
                taken.short_code, taken.held_receipt_handle, taken.held_until
            FROM advanced LEFT JOIN taken ON true
            ORDER BY taken.first_held_at NULLS LAST, taken.short_code""";

    private final ConnectionOperations<Connection> connections;

    public JdbcHeldReleaseStore(ConnectionOperations<Connection> connections) {
        this.connections = connections;
    }

    @Override
    public boolean begin(String breaker, Instant closedAt, Instant leaseUntil) {
        return update(
                        "beginning the release of breaker " + breaker,
                        """
                        UPDATE circuit_breakers SET release_from = ?, release_position = 0, release_lease_until = ?
                        WHERE name = ? AND state = 'CLOSED'""",
                        Timestamp.from(closedAt),
                        Timestamp.from(leaseUntil),
                        breaker)
                == 1;
    }

    @Override
    public Optional<Instant> lease(String breaker, Instant now, Instant leaseUntil) {
        return connections.executeWrite(status -> {
            try (PreparedStatement lease = status.getConnection().prepareStatement("""
                    UPDATE circuit_breakers SET release_lease_until = ?
                    WHERE name = ? AND state = 'CLOSED' AND release_from IS NOT NULL
                      AND (release_lease_until IS NULL OR release_lease_until <= ?)
                    RETURNING release_from""")) {
                lease.setTimestamp(1, Timestamp.from(leaseUntil));
                lease.setString(2, breaker);
                lease.setTimestamp(3, Timestamp.from(now));
                try (ResultSet rs = lease.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getTimestamp(1).toInstant()) : Optional.<Instant>empty();
                }
            } catch (SQLException e) {
                throw new DataAccessException("leasing the release of breaker " + breaker, e);
            }
        });
    }

    @Override
    public Optional<Taken> take(String breaker, Instant releaseFrom, Instant now, int limit) {
        return connections.executeWrite(status -> {
            try (PreparedStatement take = status.getConnection().prepareStatement(TAKE)) {
                take.setString(1, breaker);
                take.setTimestamp(2, Timestamp.from(releaseFrom));
                take.setTimestamp(3, Timestamp.from(now));
                take.setInt(4, limit);
                try (ResultSet rs = take.executeQuery()) {
                    long firstPosition = -1;
                    List<HeldDelivery> held = new ArrayList<>();
                    while (rs.next()) {
                        firstPosition = rs.getLong(1);
                        String shortCode = rs.getString(2);
                        if (shortCode != null) {
                            held.add(new HeldDelivery(
                                    shortCode,
                                    rs.getString(3),
                                    rs.getTimestamp(4).toInstant()));
                        }
                    }
                    return firstPosition < 0 ? Optional.<Taken>empty() : Optional.of(new Taken(firstPosition, held));
                }
            } catch (SQLException e) {
                throw new DataAccessException("taking held deliveries for the release of breaker " + breaker, e);
            }
        });
    }

    @Override
    public void restore(List<HeldDelivery> held) {
        if (held.isEmpty()) {
            return;
        }
        connections.executeWrite(status -> {
            Connection connection = status.getConnection();
            try (PreparedStatement restore = connection.prepareStatement("""
                    UPDATE pastes SET held_receipt_handle = noted.handle, held_until = noted.until
                    FROM unnest(?::text[], ?::text[], ?::timestamptz[]) AS noted (short_code, handle, until)
                    WHERE pastes.short_code = noted.short_code AND pastes.held_receipt_handle IS NULL
                      AND pastes.status = 'IN_PROGRESS'""")) {
                restore.setArray(
                        1,
                        connection.createArrayOf(
                                "text",
                                held.stream().map(HeldDelivery::shortCode).toArray()));
                restore.setArray(
                        2,
                        connection.createArrayOf(
                                "text",
                                held.stream()
                                        .map(HeldDelivery::heldReceiptHandle)
                                        .toArray()));
                restore.setArray(
                        3,
                        connection.createArrayOf(
                                "timestamptz",
                                held.stream()
                                        .map(h -> Timestamp.from(h.heldUntil()))
                                        .toArray()));
                return restore.executeUpdate();
            } catch (SQLException e) {
                throw new DataAccessException("restoring " + held.size() + " held deliveries", e);
            }
        });
    }

    @Override
    public void finish(String breaker, Instant releaseFrom) {
        update("finishing the release of breaker " + breaker, """
                UPDATE circuit_breakers SET release_from = NULL, release_lease_until = NULL
                WHERE name = ? AND release_from = ?""", breaker, Timestamp.from(releaseFrom));
    }

    @Override
    public void yieldLease(String breaker, Instant releaseFrom) {
        update(
                "yielding the release of breaker " + breaker,
                "UPDATE circuit_breakers SET release_lease_until = NULL WHERE name = ? AND release_from = ?",
                breaker,
                Timestamp.from(releaseFrom));
    }

    private int update(String what, String sql, Object... parameters) {
        return connections.executeWrite(status -> {
            try (PreparedStatement update = status.getConnection().prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    update.setObject(i + 1, parameters[i]);
                }
                return update.executeUpdate();
            } catch (SQLException e) {
                throw new DataAccessException(what, e);
            }
        });
    }
}
