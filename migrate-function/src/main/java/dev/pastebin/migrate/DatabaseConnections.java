package dev.pastebin.migrate;

import com.zaxxer.hikari.util.DriverDataSource;
import dev.pastebin.core.config.DatabaseCredentials;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * Opens connections to the database of every function (DATASOURCES_DEFAULT_URL, with the trust anchor core's
 * DatabaseTls adds to it, so the same TLS checks apply) as whichever role the caller has credentials for. Every
 * connection opened is tracked until closed, so that a run past its deadline can abort them all: PostgreSQL
 * then rolls back what was not committed.
 *
 * <p>An abort ends the run for good: the worker thread the deadline guard gave up on goes on until it notices (a
 * frozen Lambda environment may even resume it in the next invocation), so from then on every connection it asks
 * for is refused before the driver is called, one that was still being opened is aborted when it arrives, and
 * every call on a connection it holds fails, a statement included. The handler starts a new context (and so new
 * connections) for the next request.
 */
@Singleton
class DatabaseConnections {

    /** Calls on a tracked connection that still work once the run has ended: they send nothing. */
    private static final Set<String> AFTER_THE_END = Set.of("close", "abort", "isClosed");

    private final DatasourceConfiguration datasource;
    private final Set<Connection> open = new HashSet<>();
    private boolean ended;

    DatabaseConnections(@Named("default") DatasourceConfiguration datasource) {
        this.datasource = datasource;
    }

    /** A data source that connects with these credentials (Flyway opens its connections through it). */
    DataSource as(DatabaseCredentials credentials) {
        Properties properties = new Properties();
        properties.putAll(datasource.getDataSourceProperties());
        DataSource driver = new DriverDataSource(
                datasource.getJdbcUrl(),
                datasource.getDriverClassName(),
                properties,
                credentials.username(),
                credentials.password());
        return new TrackingDataSource(driver, this);
    }

    /** Opens one connection with these credentials; the caller closes it. */
    Connection open(DatabaseCredentials credentials) throws SQLException {
        return as(credentials).getConnection();
    }

    /**
     * Aborts every connection still open (the socket is closed, and the server rolls back an open transaction) and
     * refuses any new one, and any call on one still held.
     */
    void abortAll() {
        List<Connection> held;
        synchronized (this) {
            ended = true;
            held = List.copyOf(open);
            open.clear();
        }
        held.forEach(DatabaseConnections::abort);
    }

    /** Before the driver is asked for a connection, and before each call on one: refused once the run has ended. */
    void checkRunning(String call) throws SQLException {
        if (AFTER_THE_END.contains(call)) {
            return;
        }
        synchronized (this) {
            if (ended) {
                throw new SQLException("the migration run is over (its deadline passed and its connections were"
                        + " aborted): " + call + " is not sent to the database");
            }
        }
    }

    /** Tracks a connection the driver returned; one that arrives after the abort is aborted at once. */
    void opened(Connection connection) throws SQLException {
        synchronized (this) {
            if (!ended) {
                open.add(connection);
                return;
            }
        }
        abort(connection);
        checkRunning("a new connection");
    }

    synchronized void closed(Connection connection) {
        open.remove(connection);
    }

    private static void abort(Connection connection) {
        Executor now = Runnable::run;
        try {
            connection.abort(now);
        } catch (SQLException | RuntimeException e) {
            // already closed or broken: nothing left to abort
        }
    }
}
