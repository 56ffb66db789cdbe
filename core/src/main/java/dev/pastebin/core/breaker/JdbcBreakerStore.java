package dev.pastebin.core.breaker;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The breakers' shared state in PostgreSQL: one row per breaker in {@code circuit_breakers}, seen by every
 * execution environment. Reads take no lock and no transaction (one statement, one round trip); every change is read-modify-write under the row's lock
 * ({@code SELECT ... FOR UPDATE}), so concurrent environments apply their changes one after another and
 * exactly one of them can move OPEN to HALF_OPEN. Answers never move the state: they are added in place, one
 * {@code UPDATE} with no read first ({@link #addAnswers}).
 */
@Singleton
public class JdbcBreakerStore implements BreakerStore {

    /** The breaker's columns, then the held jobs' release that is read along with it (never written here). */
    private static final List<String> COLUMNS = List.of(
            "state",
            "window_started_at",
            "window_calls",
            "window_failures",
            "previous_calls",
            "previous_failures",
            "opened_at",
            "next_probe_at",
            "cooldown_ms",
            "last_cause",
            "release_from",
            "release_lease_until");

    private final TransactionOperations<Connection> transactions;
    private final ConnectionOperations<Connection> connections;

    public JdbcBreakerStore(
            TransactionOperations<Connection> transactions, ConnectionOperations<Connection> connections) {
        this.transactions = transactions;
        this.connections = connections;
    }

    /**
     * The breaker's columns of {@code table} for a query that reads them along with others, each named {@code prefix}
     * and the column ({@link #snapshot} reads them back).
     */
    public static String columns(String table, String prefix) {
        return COLUMNS.stream().map(c -> table + "." + c + " AS " + prefix + c).collect(Collectors.joining(", "));
    }

    /** The breaker in the current row of {@code rs}, read from the columns {@link #columns} named; null when none. */
    public static @Nullable BreakerSnapshot snapshot(ResultSet rs, String prefix) throws SQLException {
        String state = rs.getString(prefix + "state");
        if (state == null) {
            return null;
        }
        return new BreakerSnapshot(
                BreakerState.valueOf(state),
                rs.getTimestamp(prefix + "window_started_at").toInstant(),
                rs.getInt(prefix + "window_calls"),
                rs.getInt(prefix + "window_failures"),
                rs.getInt(prefix + "previous_calls"),
                rs.getInt(prefix + "previous_failures"),
                instant(rs.getTimestamp(prefix + "opened_at")),
                instant(rs.getTimestamp(prefix + "next_probe_at")),
                Duration.ofMillis(rs.getLong(prefix + "cooldown_ms")),
                rs.getString(prefix + "last_cause"),
                release(
                        instant(rs.getTimestamp(prefix + "release_from")),
                        instant(rs.getTimestamp(prefix + "release_lease_until"))));
    }

    /**
     * One statement in its own transaction (autocommit: one round trip), taking no lock: every upload reads the row
     * before its S3 call, so a read is the one thing the whole fleet does to it all the time.
     */
    @Override
    public BreakerSnapshot read(String name) {
        return connections.executeWrite(status -> select(status.getConnection(), name, ""));
    }

    @Override
    public Change update(String name, UnaryOperator<BreakerSnapshot> change) {
        return transactions.executeWrite(status -> {
            Connection connection = status.getConnection();
            commitWithoutWaitingForTheDisk(connection);
            BreakerSnapshot before = select(connection, name, " FOR UPDATE");
            BreakerSnapshot after = change.apply(before);
            if (!after.equals(before)) {
                write(connection, name, after);
            }
            return new Change(before, after);
        });
    }

    /**
     * One statement in its own transaction (autocommit: one round trip), so the row's lock is held only while the
     * server runs it, never across a round trip to a busy client. Its commit does not wait for the disk either
     * ({@code set_config(..., true)} lasts for this transaction only), as for {@link #update}.
     */
    @Override
    public boolean addAnswers(String name, Instant windowStartedAt, int windowCalls, int previousCalls) {
        return connections.executeWrite(status -> {
            try (PreparedStatement add = status.getConnection().prepareStatement("""
                    UPDATE circuit_breakers SET window_calls = window_calls + ?, previous_calls = previous_calls + ?,
                        updated_at = now()
                    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_waiting_for_the_disk
                    WHERE name = ? AND state = 'CLOSED' AND window_started_at = ?""")) {
                add.setInt(1, windowCalls);
                add.setInt(2, previousCalls);
                add.setString(3, name);
                add.setTimestamp(4, Timestamp.from(windowStartedAt));
                return add.executeUpdate() == 1;
            } catch (SQLException e) {
                throw new DataAccessException("adding answers to circuit breaker " + name, e);
            }
        });
    }

    /**
     * The row's lock is held until the commit, and every environment queues for it: a commit that waits for
     * the WAL to reach the disk (or a standby) multiplies that wait by the queue. The row is a heuristic that
     * the next failure or probe rewrites, so the last few hundred milliseconds of it lost in a database crash
     * cost nothing, and its commits do not wait (docs/scale.md, "The shared breaker at fleet concurrency").
     */
    private static void commitWithoutWaitingForTheDisk(Connection connection) {
        try (var statement = connection.createStatement()) {
            statement.execute("SET LOCAL synchronous_commit = off");
        } catch (SQLException e) {
            throw new DataAccessException("setting the breaker's commit mode", e);
        }
    }

    /** A breaker named for the first time starts closed (the migration creates the default one). */
    private static void create(Connection connection, String name) {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO circuit_breakers (name, state) VALUES (?, 'CLOSED') ON CONFLICT (name) DO NOTHING")) {
            insert.setString(1, name);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new DataAccessException("creating circuit breaker " + name, e);
        }
    }

    private static BreakerSnapshot select(Connection connection, String name, String lock) {
        return find(connection, name, lock).orElseGet(() -> {
            create(connection, name);
            return find(connection, name, lock).orElseThrow();
        });
    }

    private static Optional<BreakerSnapshot> find(Connection connection, String name, String lock) {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + String.join(", ", COLUMNS) + " FROM circuit_breakers WHERE name = ?" + lock)) {
            select.setString(1, name);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.ofNullable(snapshot(rs, "")) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DataAccessException("reading circuit breaker " + name, e);
        }
    }

    private static void write(Connection connection, String name, BreakerSnapshot s) {
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE circuit_breakers SET state = ?, window_started_at = ?, window_calls = ?, window_failures = ?,
                    previous_calls = ?, previous_failures = ?, opened_at = ?, next_probe_at = ?, cooldown_ms = ?,
                    last_cause = left(?, 1024), updated_at = now()
                WHERE name = ?""")) {
            update.setString(1, s.state().name());
            update.setTimestamp(2, Timestamp.from(s.windowStartedAt()));
            update.setInt(3, s.windowCalls());
            update.setInt(4, s.windowFailures());
            update.setInt(5, s.previousCalls());
            update.setInt(6, s.previousFailures());
            update.setTimestamp(7, s.openedAt() == null ? null : Timestamp.from(s.openedAt()));
            update.setTimestamp(8, s.nextProbeAt() == null ? null : Timestamp.from(s.nextProbeAt()));
            update.setLong(9, s.cooldown().toMillis());
            update.setString(10, s.lastCause());
            update.setString(11, name);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new DataAccessException("writing circuit breaker " + name, e);
        }
    }

    private static BreakerSnapshot.@Nullable PendingRelease release(
            @Nullable Instant from, @Nullable Instant leasedUntil) {
        return from == null ? null : new BreakerSnapshot.PendingRelease(from, leasedUntil);
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
