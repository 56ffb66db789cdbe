package dev.pastebin.core.config;

import dev.pastebin.core.failure.FailureClassifier;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * What Hikari opens its physical connections with when the credentials come from a secret: the connection is
 * opened with the secret's credentials as last read, and when PostgreSQL rejects the password (SQLSTATE
 * 28P01: the secret was rotated, or a SnapStart snapshot restored credentials read before the rotation) the
 * secret is read again and, when it holds new credentials (in its AWSCURRENT version, or else in its AWSPENDING one
 * during a rotation: {@link DatabaseSecret}), the connection is opened once more with them.
 *
 * <p>Opening a connection changes nothing in the database, so this one retry is always safe, and because
 * Hikari opens every connection here, every repository call of every function heals without a retry of its
 * own. Connections already open are unaffected: PostgreSQL keeps its sessions when a password changes.
 */
final class SecretCredentialsDataSource implements DataSource {

    /** PostgreSQL's invalid_password: also what it answers for an unknown user, so that names do not leak. */
    static final String INVALID_PASSWORD = "28P01";

    private final DataSource driver;
    private final DatabaseSecret secret;

    /**
     * @param driver opens a connection with the credentials it is given (Hikari's DriverDataSource for the
     *               configured URL, driver and properties)
     */
    SecretCredentialsDataSource(DataSource driver, DatabaseSecret secret) {
        this.driver = driver;
        this.secret = secret;
    }

    @Override
    public Connection getConnection() throws SQLException {
        DatabaseCredentials credentials = secret.current();
        try {
            return open(credentials);
        } catch (SQLException failure) {
            if (!isInvalidPassword(failure)) {
                throw failure;
            }
            Optional<DatabaseCredentials> rotated;
            try {
                rotated = secret.refreshAfterRejectionOf(credentials);
            } catch (RuntimeException unreadable) {
                // The rejection is what the pool reports (and the caller classifies); why it could not heal rides
                // along.
                failure.addSuppressed(unreadable);
                throw failure;
            }
            if (rotated.isEmpty()) {
                throw failure;
            }
            return open(rotated.get());
        }
    }

    /** Hikari passes credentials only when its configuration has some; with a secret it has none. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the database credentials come from the secret, not from the caller");
    }

    /** True when PostgreSQL rejected the password, however deeply the driver or pool wrapped that. */
    static boolean isInvalidPassword(Throwable failure) {
        return FailureClassifier.hasSqlState(failure, INVALID_PASSWORD);
    }

    private Connection open(DatabaseCredentials credentials) throws SQLException {
        return driver.getConnection(credentials.username(), credentials.password());
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return driver.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        driver.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        driver.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return driver.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return driver.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : driver.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || driver.isWrapperFor(type);
    }
}
