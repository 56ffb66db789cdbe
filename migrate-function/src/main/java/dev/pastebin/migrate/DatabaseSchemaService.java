package dev.pastebin.migrate;

import dev.pastebin.core.config.DatabaseCredentials;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the database to the schema this release carries (core's db/migration) and the functions' roles to the
 * roles file, or, for a database managed by hand, checks that they are (docs/operating.md, "The database schema").
 */
@Singleton
class DatabaseSchemaService {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSchemaService.class);
    private static final String MIGRATIONS = "classpath:db/migration";

    private final DatabaseSecrets secrets;
    private final DatabaseConnections connections;
    private final DatabaseRoles roles;

    DatabaseSchemaService(DatabaseSecrets secrets, DatabaseConnections connections, DatabaseRoles roles) {
        this.secrets = secrets;
        this.connections = connections;
        this.roles = roles;
    }

    /** Migrates or checks, as the request says; returns the schema version the database is at. */
    String apply(SchemaRequest request) throws SQLException {
        Map<String, DatabaseCredentials> roleCredentials = roleCredentials(request);
        if (request.migrates()) {
            return migrate(request.ownerSecretArn().orElseThrow(), request, roleCredentials);
        }
        return check(request, roleCredentials);
    }

    /**
     * CloudFormation's rollback of a failed deploy ({@link SchemaRequest#isRollback}): migrates nothing and sets up
     * nothing, only connects as each role; returns the version the schema is at. A forward migration that failed
     * left the schema as it was (one transaction), and one that succeeded is expand-only, so the previous release
     * works on it; running this code's migrations again (the rollback may reach the new code) would only fail
     * again and leave the stack UPDATE_ROLLBACK_FAILED.
     */
    String afterRollback(SchemaRequest request) {
        Map<String, DatabaseCredentials> roleCredentials = roleCredentials(request);
        connectAsEachRole(request, roleCredentials);
        return versionOf(schemaInfo(roleCredentials.get("pastebin_read")).current());
    }

    /**
     * Aborts the run's open connections (its deadline has passed): PostgreSQL rolls back what was not committed.
     * Nothing the run does afterwards reaches the database ({@link DatabaseConnections#abortAll}).
     */
    void abort() {
        connections.abortAll();
    }

    private String migrate(
            String ownerSecretArn, SchemaRequest request, Map<String, DatabaseCredentials> roleCredentials)
            throws SQLException {
        DatabaseCredentials owner = secrets.read(ownerSecretArn);
        try (Connection connection = connections.open(owner)) {
            connection.isValid(5);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    ConnectionFailures.explain(
                            e, "the schema's owner " + owner.username() + " (OwnerSecretArn " + ownerSecretArn + ")"),
                    e);
        }
        Flyway flyway = Flyway.configure()
                .dataSource(connections.as(owner))
                .locations(MIGRATIONS)
                // All pending migrations in one transaction: a failing one leaves the schema as it was.
                .group(true)
                .load();
        String before = versionOf(flyway.info().current());
        try {
            flyway.migrate();
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "migrating the schema from version " + before + " failed, and the schema is still at version "
                            + before + ": " + Reasons.describe(e),
                    e);
        }
        String after = versionOf(flyway.info().current());
        LOG.info("database schema at version {} (was {})", after, before);
        Set<String> given;
        try (Connection connection = connections.open(owner)) {
            given = roles.apply(connection, roleCredentials);
        }
        LOG.info(
                "roles {} granted; given their secrets' passwords: {} (the others already log in with theirs)",
                roleCredentials.keySet(),
                given);
        connectAsEachRole(request, roleCredentials);
        return after;
    }

    /** A database managed by hand: every role can connect, and the schema is at this release's newest version. */
    private String check(SchemaRequest request, Map<String, DatabaseCredentials> roleCredentials) {
        connectAsEachRole(request, roleCredentials);
        MigrationInfoService info = schemaInfo(roleCredentials.get("pastebin_read"));
        String current = versionOf(info.current());
        MigrationInfo[] pending = info.pending();
        if (pending.length > 0) {
            throw new IllegalStateException("the schema is at version " + current + " and this release needs version "
                    + versionOf(pending[pending.length - 1])
                    + ". Without OwnerSecretArn the stack only checks the schema:"
                    + " apply core's migrations and the roles file as the schema's owner (docs/operating.md, \"The"
                    + " database schema\"), or give the owner's secret as OwnerSecretArn");
        }
        return current;
    }

    /** Flyway's view of the schema, read as pastebin_read: nothing is changed. */
    private MigrationInfoService schemaInfo(DatabaseCredentials reader) {
        try {
            return Flyway.configure()
                    .dataSource(connections.as(reader))
                    .locations(MIGRATIONS)
                    .load()
                    .info();
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "cannot read the schema version as pastebin_read (the roles file grants it SELECT on"
                            + " flyway_schema_history): " + Reasons.describe(e),
                    e);
        }
    }

    private Map<String, DatabaseCredentials> roleCredentials(SchemaRequest request) {
        Map<String, DatabaseCredentials> credentials = new LinkedHashMap<>();
        request.roleSecrets().forEach((role, arn) -> {
            DatabaseCredentials read = secrets.read(arn);
            if (!role.equals(read.username())) {
                throw new IllegalStateException("secret " + arn + " (RoleSecrets." + role + ") holds username "
                        + read.username() + ", not " + role);
            }
            credentials.put(role, read);
        });
        return credentials;
    }

    private void connectAsEachRole(SchemaRequest request, Map<String, DatabaseCredentials> roleCredentials) {
        roleCredentials.forEach((role, credentials) -> {
            try (Connection connection = connections.open(credentials)) {
                connection.isValid(5);
            } catch (SQLException e) {
                throw new IllegalStateException(
                        ConnectionFailures.explain(
                                e,
                                "role " + role + " (secret "
                                        + request.roleSecrets().get(role) + ")"),
                        e);
            }
        });
    }

    private static String versionOf(MigrationInfo migration) {
        if (migration == null) {
            return "none";
        }
        MigrationVersion version = migration.getVersion();
        return version == null ? "none" : version.getVersion();
    }
}
