package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.testkit.RunDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The built migration function answering CloudFormation's Create, Update and Delete of the DatabaseSchema
 * resource: the schema migrated, the roles set up with their secrets' passwords and no more privileges than the
 * roles file grants, a database managed by hand only checked. The roles are the cluster's, so the tests that
 * connect as them run in order, after the Create that set their passwords.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseMigrationFunctionIT {

    private MigrationFunctionRun run;
    private RunDatabase fresh;

    @BeforeAll
    void start() throws Exception {
        run = new MigrationFunctionRun();
        fresh = run.database("fresh");
    }

    @AfterAll
    void stop() throws Exception {
        run.close();
    }

    @Test
    @Order(1)
    void createMigratesAnEmptyDatabaseAndSetsUpTheRoles() throws Exception {
        var invocation = run.invoke(run.event("Create", true), fresh, Map.of());

        JsonNode answer = invocation.answer();
        assertEquals("SUCCESS", answer.get("Status").asText(), invocation.output());
        String latest = MigrationFunctionRun.latestVersion(fresh);
        assertEquals(latest, answer.path("Data").path("SchemaVersion").asText(), answer.toString());
        assertEquals(latest, MigrationFunctionRun.versionOf(fresh));
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
        assertEquals("DatabaseSchema", answer.get("LogicalResourceId").asText());
        assertTrue(answer.get("StackId").asText().startsWith("arn:aws:cloudformation:"), answer.toString());
        for (String password : run.passwords()) {
            assertFalse(invocation.output().contains(password), "a password in the function's output");
            assertFalse(answer.toString().contains(password), "a password in the answer");
        }
    }

    @Test
    @Order(2)
    void eachRoleConnectsWithItsSecretsPasswordAndIsRefusedWhatItMustNotDo() throws Exception {
        for (String role : SchemaRequest.ROLES) {
            try (Connection connection = run.connectAs(fresh, role);
                    var statement = connection.createStatement()) {
                statement.executeQuery("SELECT count(*) FROM pastes").close();
            }
        }
        assertRefused(
                "pastebin_read",
                "INSERT INTO pastes (short_code, content_sha256, size_bytes, status)"
                        + " VALUES ('readonly', repeat('0', 64), 1, 'IN_PROGRESS')");
        assertRefused("pastebin_create", "DELETE FROM pastes");
        assertRefused("pastebin_upload", "DELETE FROM idempotency_keys");
        assertRefused("pastebin_sweeper", "INSERT INTO circuit_breakers (name) VALUES ('x')");
        assertRefused("pastebin_remove", "DELETE FROM idempotency_keys");
    }

    private void assertRefused(String role, String sql) throws SQLException {
        try (Connection connection = run.connectAs(fresh, role);
                var statement = connection.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> statement.execute(sql), role + ": " + sql);
            assertEquals("42501", refused.getSQLState(), role + ": " + refused.getMessage());
        }
    }

    @Test
    @Order(3)
    void updateFromAnEarlierSchemaMigratesToTheLatestAndKeepsTheRows() throws Exception {
        RunDatabase earlier = run.database("v6");
        MigrationFunctionRun.migrateTo(earlier, "6");
        try (Connection c = earlier.connect();
                var insert = c.createStatement()) {
            insert.execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status)"
                    + " VALUES ('keptrow1', repeat('0', 64), 1, 'IN_PROGRESS')");
        }

        var invocation = run.invoke(run.event("Update", true), earlier, Map.of());

        assertEquals("SUCCESS", invocation.answer().get("Status").asText(), invocation.output());
        assertEquals(
                "pastebin-DatabaseSchema",
                invocation.answer().get("PhysicalResourceId").asText());
        String latest = MigrationFunctionRun.latestVersion(earlier);
        assertEquals(latest, MigrationFunctionRun.versionOf(earlier));
        assertEquals(
                latest, invocation.answer().path("Data").path("SchemaVersion").asText());
        try (Connection c = run.connectAs(earlier, "pastebin_read");
                var q = c.createStatement();
                var rs = q.executeQuery("SELECT count(*) FROM pastes WHERE short_code = 'keptrow1'")) {
            rs.next();
            assertEquals(1, rs.getInt(1));
        }
    }

    /** Without an owner secret the function only checks: every role connects, the schema is current. */
    @Test
    @Order(4)
    void withoutAnOwnerSecretACurrentSchemaPassesTheCheck() throws Exception {
        var invocation = run.invoke(run.event("Update", false), fresh, Map.of());

        assertEquals("SUCCESS", invocation.answer().get("Status").asText(), invocation.output());
        assertEquals(
                MigrationFunctionRun.latestVersion(fresh),
                invocation.answer().path("Data").path("SchemaVersion").asText());
    }

    @Test
    @Order(5)
    void withoutAnOwnerSecretAnOutdatedSchemaFailsSayingWhatToRun() throws Exception {
        RunDatabase outdated = run.database("byo");
        // The roles file grants on every table of this release, so the database gets them all; then its history
        // is made to say it stopped at an earlier release, as a database migrated by hand and left behind would.
        String latest = MigrationFunctionRun.latestVersion(outdated);
        MigrationFunctionRun.migrateTo(outdated, latest);
        try (Connection owner = outdated.connect();
                var statement = owner.createStatement()) {
            statement.execute(DatabaseRoles.rolesSql());
            statement.execute("DELETE FROM flyway_schema_history WHERE version::int > 6");
        }

        var invocation = run.invoke(run.event("Update", false), outdated, Map.of());

        JsonNode answer = invocation.answer();
        assertEquals("FAILED", answer.get("Status").asText(), invocation.output());
        String reason = answer.get("Reason").asText();
        assertTrue(
                reason.contains("at version 6")
                        && reason.contains("needs version " + latest)
                        && reason.contains("OwnerSecretArn"),
                reason);
        assertEquals("6", MigrationFunctionRun.versionOf(outdated), "a check changes nothing");
    }

    /** The data stays: Delete answers SUCCESS with the same id and leaves the schema and rows as they were. */
    @Test
    @Order(6)
    void deleteLeavesTheDatabaseAsItIs() throws Exception {
        var invocation = run.invoke(run.event("Delete", true), fresh, Map.of());

        assertEquals("SUCCESS", invocation.answer().get("Status").asText(), invocation.output());
        assertEquals(
                "pastebin-DatabaseSchema",
                invocation.answer().get("PhysicalResourceId").asText());
        assertEquals(MigrationFunctionRun.latestVersion(fresh), MigrationFunctionRun.versionOf(fresh));
        try (Connection c = run.connectAs(fresh, "pastebin_read")) {
            assertTrue(c.isValid(5), "the roles stay");
        }
    }
}
