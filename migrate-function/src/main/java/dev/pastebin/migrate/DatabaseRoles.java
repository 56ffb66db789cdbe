package dev.pastebin.migrate;

import dev.pastebin.core.config.DatabaseCredentials;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.postgresql.PGConnection;

/**
 * The functions' database roles: core's roles file ({@link #ROLES_FILE}, the one source of the grants) applied
 * as the schema's owner, then each role that cannot yet log in with its secret given LOGIN and that password.
 *
 * <p>A password is never sent: pgjdbc computes its SCRAM verifier on the client
 * ({@link PGConnection#alterUserPassword}), and only the verifier travels, in {@code ALTER USER ... PASSWORD}. The
 * server logs the text of a failing statement by default, and every ALTER ROLE under {@code log_statement = ddl};
 * a verifier there is not a password. A role that already logs in with its secret is sent nothing, so a deploy
 * whose secrets did not change sends no password-related statement at all.
 */
@Singleton
class DatabaseRoles {

    /**
     * On the classpath (core's jar): creates each missing role and gives each exactly its privileges (all it held on
     * the schema revoked, then its list granted).
     */
    static final String ROLES_FILE = "db/roles.sql";

    /** How PostgreSQL stores the passwords: its default since 14, and the only method its docs recommend. */
    private static final String ENCRYPTION = "scram-sha-256";

    private final DatabaseConnections connections;

    DatabaseRoles(DatabaseConnections connections) {
        this.connections = connections;
    }

    /**
     * Applies the roles file and gives each role that cannot log in with its secret its password, in one
     * transaction on {@code owner}.
     *
     * @param passwords role name to the credentials of its secret (username already checked to be the role)
     * @return the roles that were given their password (the others already logged in with it)
     */
    Set<String> apply(Connection owner, Map<String, DatabaseCredentials> passwords) throws SQLException {
        // Before the transaction: a role the roles file creates exists for other sessions only once it commits.
        Set<String> stale = new TreeSet<>();
        passwords.forEach((role, credentials) -> {
            if (!logsIn(credentials)) {
                stale.add(role);
            }
        });
        boolean autoCommit = owner.getAutoCommit();
        owner.setAutoCommit(false);
        try {
            try (var statement = owner.createStatement()) {
                statement.execute(rolesSql());
            }
            PGConnection pg = owner.unwrap(PGConnection.class);
            for (String role : stale) {
                setPassword(pg, owner, role, passwords.get(role).password());
            }
            owner.commit();
        } catch (SQLException | RuntimeException e) {
            owner.rollback();
            throw e;
        } finally {
            owner.setAutoCommit(autoCommit);
        }
        return stale;
    }

    /** True when a connection as the role, with its secret's password, is accepted. */
    private boolean logsIn(DatabaseCredentials credentials) {
        try (Connection connection = connections.open(credentials)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * LOGIN (the roles file creates roles with it; one made by hand may lack it), then the password's SCRAM verifier.
     * A failure is reported without the server's message.
     */
    private static void setPassword(PGConnection pg, Connection owner, String role, String password)
            throws SQLException {
        char[] chars = password.toCharArray();
        try (var statement = owner.createStatement()) {
            statement.execute("ALTER ROLE " + pg.escapeIdentifier(role) + " LOGIN");
            pg.alterUserPassword(role, chars, ENCRYPTION);
        } catch (SQLException e) {
            throw new SQLException(
                    "cannot set the password of role " + role + " (SQLSTATE " + e.getSQLState() + ")", e.getSQLState());
        } finally {
            Arrays.fill(chars, '\0');
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
