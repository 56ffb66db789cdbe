package dev.pastebin.migrate;

import com.zaxxer.hikari.util.DriverDataSource;
import dev.pastebin.core.config.DatabaseCredentials;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * Opens connections to the database of every function (DATASOURCES_DEFAULT_URL, with the trust anchor core's
 * DatabaseTls adds to it, so the same TLS checks apply) as whichever role the caller has credentials for. Every
 * connection opened is tracked until closed, so that a run past its deadline can abort them all: PostgreSQL
 * then rolls back what was not committed.
 */
@Singleton
class DatabaseConnections {

    private final DatasourceConfiguration datasource;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();

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
        return new TrackingDataSource(driver, open);
    }

    /** Opens one connection with these credentials; the caller closes it. */
    Connection open(DatabaseCredentials credentials) throws SQLException {
        return as(credentials).getConnection();
    }

    /** Aborts every connection still open: the socket is closed, and the server rolls back an open transaction. */
    void abortAll() {
        Executor now = Runnable::run;
        for (Connection connection : List.copyOf(open)) {
            open.remove(connection);
            try {
                connection.abort(now);
            } catch (SQLException | RuntimeException e) {
                // already closed or broken: nothing left to abort
            }
        }
    }
}
