package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The roles file (core's {@code db/roles.sql}, which the migration function applies on every deploy) applied to a
 * freshly migrated database gives each function's role exactly the privileges its statements need (docs/operating.md, "Database roles"): what the statements of each function do is
 * listed here next to the privilege it needs, so a grant missing (or one too many) fails by name.
 */
@RealServices
@OwnDatabase("roles")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseRolesIT {

    private static final Path ROLES_SQL = Path.of("src", "main", "resources", "db", "roles.sql");
    private static final List<String> TABLES = List.of(
            "pastes",
            "idempotency_keys",
            "circuit_breakers",
            "flyway_schema_history",
            "abuse_reports",
            "report_notices",
            "report_notice_hours",
            "report_reporter_hours",
            "takedowns",
            "content_blocklist",
            "moderation_audit",
            "sweeper_epoch",
            "api_keys",
            "api_key_usage");
    private static final List<String> PRIVILEGES = List.of("SELECT", "INSERT", "UPDATE", "DELETE");

    /** role → table → privileges, each for a statement of that function. */
    private static final Map<String, Map<String, Set<String>>> NEEDED = Map.of(
            // insert the row; mark it FAILED when its job cannot be queued; claim, read and release idempotency keys;
            // with CreateAccess=api-key look the key up and claim the day's usage (an upsert that RETURNs)
            "pastebin_create",
                    Map.of(
                            "pastes", Set.of("SELECT", "INSERT", "UPDATE"),
                            "idempotency_keys", Set.of("SELECT", "INSERT", "UPDATE", "DELETE"),
                            "content_blocklist", Set.of("SELECT"),
                            "api_keys", Set.of("SELECT"),
                            "api_key_usage", Set.of("SELECT", "INSERT", "UPDATE")),
            // read a paste; an IN_PROGRESS paste's Retry-After reads the S3 breaker's next probe; a missing
            // paste's tombstone (451); the migration function checks a database managed by hand is at the
            // current schema version as this role; GET /me/pastes looks the caller's key up
            "pastebin_read",
                    Map.of(
                            "pastes", Set.of("SELECT"),
                            "api_keys", Set.of("SELECT"),
                            "circuit_breakers", Set.of("SELECT"),
                            "flyway_schema_history", Set.of("SELECT"),
                            "takedowns", Set.of("SELECT")),
            // mark PROCESSED / FAILED, count attempts; the shared breaker (its row created on first use); a
            // blocklisted job's row removed with a tombstone and an audit entry
            "pastebin_upload",
                    Map.of(
                            "pastes", Set.of("SELECT", "UPDATE", "DELETE"),
                            "circuit_breakers", Set.of("SELECT", "INSERT", "UPDATE"),
                            "content_blocklist", Set.of("SELECT"),
                            "takedowns", Set.of("INSERT"),
                            "moderation_audit", Set.of("INSERT")),
            // stuck rows FAILED, FAILED and expired rows deleted; old idempotency keys deleted; dead letters
            // requeued only while the S3 breaker is closed; reports, notices, tombstones and audit entries past
            // their retention deleted; the sweep epoch read and advanced (locked first)
            "pastebin_sweeper",
                    Map.of(
                            "pastes", Set.of("SELECT", "UPDATE", "DELETE"),
                            "idempotency_keys", Set.of("SELECT", "DELETE"),
                            "circuit_breakers", Set.of("SELECT"),
                            "abuse_reports", Set.of("SELECT", "DELETE"),
                            "report_notices", Set.of("SELECT", "DELETE"),
                            "report_notice_hours", Set.of("SELECT", "DELETE"),
                            "report_reporter_hours", Set.of("SELECT", "DELETE"),
                            "takedowns", Set.of("SELECT", "DELETE"),
                            "moderation_audit", Set.of("SELECT", "DELETE"),
                            "sweeper_epoch", Set.of("SELECT", "UPDATE")),
            // a report looks the paste up, is stored, and claims the paste's hourly notice, its reporter's and the
            // hour's budget (INSERT ... ON CONFLICT DO UPDATE ... RETURNING reads the row it updates); it marks
            // earlier hours' digests sent (UPDATE ... WHERE hour IN (SELECT ... FOR UPDATE SKIP LOCKED))
            "pastebin_report",
                    Map.of(
                            "pastes", Set.of("SELECT"),
                            "abuse_reports", Set.of("INSERT"),
                            "report_notices", Set.of("SELECT", "INSERT", "UPDATE"),
                            "report_notice_hours", Set.of("SELECT", "INSERT", "UPDATE"),
                            "report_reporter_hours", Set.of("SELECT", "INSERT", "UPDATE")),
            // PrivateBin's clients: create (the row, FAILED when its job cannot be queued), read, burn after reading
            // (a reveal: SELECT ... FOR UPDATE needs UPDATE) and delete; the blocklist and the tombstones as the
            // create, read and remove functions look them up
            "pastebin_privatebin",
                    Map.of(
                            "pastes", Set.of("SELECT", "INSERT", "UPDATE", "DELETE"),
                            "content_blocklist", Set.of("SELECT"),
                            "takedowns", Set.of("SELECT"),
                            "api_keys", Set.of("SELECT"),
                            "api_key_usage", Set.of("SELECT", "INSERT", "UPDATE")),
            // delete with the token, reveal (SELECT ... FOR UPDATE needs UPDATE); an IN_PROGRESS read-once
            // paste's Retry-After reads the S3 breaker's next probe, as the read function's does; DELETE
            // /me/pastes/{code} looks the caller's key up
            "pastebin_remove",
                    Map.of(
                            "pastes", Set.of("SELECT", "UPDATE", "DELETE"),
                            "api_keys", Set.of("SELECT"),
                            "circuit_breakers", Set.of("SELECT"),
                            "takedowns", Set.of("SELECT")),
            // takedown: lock and remove the row, tombstone, audit; block and unblock; keys create, list and revoke
            "pastebin_moderation",
                    Map.of(
                            "pastes", Set.of("SELECT", "UPDATE", "DELETE"),
                            "takedowns", Set.of("SELECT", "INSERT"),
                            "moderation_audit", Set.of("SELECT", "INSERT"),
                            "content_blocklist", Set.of("SELECT", "INSERT", "DELETE"),
                            "api_keys", Set.of("SELECT", "INSERT", "UPDATE"),
                            "api_key_usage", Set.of("SELECT")));

    private Connection owner;

    @BeforeAll
    void applyRolesSql() throws Exception {
        owner = DriverManager.getConnection(
                System.getProperty("datasources.default.url"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
        applyRolesFile();
    }

    private void applyRolesFile() throws Exception {
        try (var statement = owner.createStatement()) {
            statement.execute(Files.readString(ROLES_SQL)
                    .lines()
                    .filter(line -> !line.stripLeading().startsWith("--"))
                    .reduce("", (sql, line) -> sql + line + "\n"));
        }
    }

    /**
     * A privilege an earlier release listed (or someone granted by hand) and the file no longer lists is taken
     * away when the file is applied again: each role ends with exactly what the file lists, on every table and
     * sequence of the schema, a column's privilege included.
     */
    @Test
    void applyingTheFileAgainRevokesWhatItNoLongerLists() throws Exception {
        List<String> extras = List.of(
                "DELETE ON takedowns TO pastebin_read",
                "INSERT ON circuit_breakers TO pastebin_sweeper",
                "UPDATE (reason) ON takedowns TO pastebin_remove",
                "USAGE ON SEQUENCE abuse_reports_id_seq TO pastebin_report");
        try (var statement = owner.createStatement()) {
            for (String extra : extras) {
                statement.execute("GRANT " + extra);
            }
        }

        applyRolesFile();

        assertEquals(
                List.of(false, false, false, false, true),
                List.of(
                        granted("has_table_privilege('pastebin_read', 'takedowns', 'DELETE')"),
                        granted("has_table_privilege('pastebin_sweeper', 'circuit_breakers', 'INSERT')"),
                        granted("has_column_privilege('pastebin_remove', 'takedowns', 'reason', 'UPDATE')"),
                        granted("has_sequence_privilege('pastebin_report', 'abuse_reports_id_seq', 'USAGE')"),
                        granted("has_table_privilege('pastebin_read', 'takedowns', 'SELECT')")),
                "DELETE on takedowns, INSERT on circuit_breakers, UPDATE (reason) on takedowns and USAGE on the"
                        + " abuse reports' sequence are gone; SELECT on takedowns, listed, stays");
    }

    private boolean granted(String check) throws SQLException {
        try (var statement = owner.createStatement();
                var answer = statement.executeQuery("SELECT " + check)) {
            answer.next();
            return answer.getBoolean(1);
        }
    }

    @Test
    void eachRoleHasExactlyThePrivilegesItsFunctionsStatementsNeed() throws SQLException {
        Map<String, Map<String, Set<String>>> granted = new TreeMap<>();
        for (String role : NEEDED.keySet()) {
            for (String table : TABLES) {
                for (String privilege : PRIVILEGES) {
                    try (var check = owner.prepareStatement("SELECT has_table_privilege(?, ?, ?)")) {
                        check.setString(1, role);
                        check.setString(2, table);
                        check.setString(3, privilege);
                        try (var answer = check.executeQuery()) {
                            answer.next();
                            if (answer.getBoolean(1)) {
                                granted.computeIfAbsent(role, r -> new TreeMap<>())
                                        .computeIfAbsent(table, t -> new TreeSet<>())
                                        .add(privilege);
                            }
                        }
                    }
                }
            }
        }
        Map<String, Map<String, Set<String>>> needed = new TreeMap<>();
        NEEDED.forEach((role, tables) -> tables.forEach((table, privileges) ->
                needed.computeIfAbsent(role, r -> new TreeMap<>()).put(table, new TreeSet<>(privileges))));
        assertEquals(needed, granted);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
