package dev.pastebin.migrate;

import dev.pastebin.core.config.DatabaseCredentials;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The functions' database roles: core's roles file ({@link #ROLES_FILE}, the one source of the grants) applied
 * as the schema's owner, then each role given LOGIN and the password of its secret.
 */
@Singleton
class DatabaseRoles {

    /** On the classpath (core's jar): creates each missing role and grants it its privileges. */
    static final String ROLES_FILE = "db/roles.sql";

    /**
     * Applies the roles file and sets each role's password, in one transaction on {@code owner}.
     *
     * @param passwords role name to the credentials of its secret (username already checked to be the role)
     */
    void apply(Connection owner, Map<String, DatabaseCredentials> passwords) throws SQLException {
        boolean autoCommit = owner.getAutoCommit();
        owner.setAutoCommit(false);
        try {
            try (var statement = owner.createStatement()) {
                statement.execute(rolesSql());
            }
            for (var role : passwords.entrySet()) {
                setPassword(owner, role.getKey(), role.getValue().password());
            }
            owner.commit();
        } catch (SQLException | RuntimeException e) {
            owner.rollback();
            throw e;
        } finally {
            owner.setAutoCommit(autoCommit);
        }
    }

    /**
     * The statement is quoted by the server (format's %I and %L), never by concatenation here. A failure is
     * reported without the server's message, which could quote the statement and so the password.
     */
    private static void setPassword(Connection owner, String role, String password) throws SQLException {
        String alter;
        try (var quote = owner.prepareStatement("SELECT format('ALTER ROLE %I LOGIN PASSWORD %L', ?::text, ?::text)")) {
            quote.setString(1, role);
            quote.setString(2, password);
            try (var result = quote.executeQuery()) {
                result.next();
                alter = result.getString(1);
            }
        }
        try (var statement = owner.createStatement()) {
            statement.execute(alter);
        } catch (SQLException e) {
            throw new SQLException(
                    "cannot set the password of role " + role + " (SQLSTATE " + e.getSQLState() + ")", e.getSQLState());
        }
    }

    static String rolesSql() {
        try (InputStream in = DatabaseRoles.class.getClassLoader().getResourceAsStream(ROLES_FILE)) {
            if (in == null) {
                throw new IllegalStateException(ROLES_FILE + " is not on the classpath (core's jar carries it)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
