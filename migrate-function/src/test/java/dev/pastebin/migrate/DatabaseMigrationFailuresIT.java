package dev.pastebin.migrate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TlsPostgres;
import dev.pastebin.testkit.RunDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every way a run of the built migration function can go wrong still answers CloudFormation, with FAILED and a
 * reason, and leaves the schema it found: a migration that fails, a run past its deadline, a context that cannot
 * start; and the Delete that follows a failed Create succeeds without touching anything.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseMigrationFailuresIT {

    private MigrationFunctionRun run;

    @BeforeAll
    void start() throws Exception {
        run = new MigrationFunctionRun();
    }

    @AfterAll
    void stop() throws Exception {
        run.close();
    }

    /**
     * V7 adds pastes.language and pastes.file_name; with language already there it fails, and V7 and V8, one
     * transaction, are both rolled back. CloudFormation then sends Delete with the id the FAILED answer gave.
     */
    @Test
    void aFailingMigrationLeavesThePreviousSchemaAndTheDeleteAfterItTouchesNothing() throws Exception {
        RunDatabase database = run.database("clash");
        MigrationFunctionRun.migrateTo(database, "6");
        try (Connection c = database.connect();
                var statement = c.createStatement()) {
            statement.execute("ALTER TABLE pastes ADD COLUMN language TEXT");
        }

        var create = run.invoke(run.event("Create", true), database, Map.of());

        JsonNode answer = create.answer();
        assertEquals("FAILED", answer.get("Status").asText(), create.output());
        String reason = answer.get("Reason").asText();
        assertTrue(reason.contains("language") && reason.contains("still at version 6"), reason);
        assertTrue(reason.length() < 1000, reason);
        assertEquals("6", MigrationFunctionRun.versionOf(database));
        assertFalse(hasColumn(database, "file_name"), "V7's other column was rolled back");
        assertFalse(hasColumn(database, "held_receipt_handle"), "V8 was rolled back");

        var delete = run.event("Delete", true);
        delete.put("PhysicalResourceId", answer.get("PhysicalResourceId").asText());
        var deleted = run.invoke(delete, database, Map.of());

        assertEquals("SUCCESS", deleted.answer().get("Status").asText(), deleted.output());
        assertEquals(
                answer.get("PhysicalResourceId").asText(),
                deleted.answer().get("PhysicalResourceId").asText());
        assertEquals("6", MigrationFunctionRun.versionOf(database));
        assertTrue(hasColumn(database, "language"), "Delete touched nothing");
    }

    /**
     * CloudFormation's rollback of a deploy whose migration failed is an Update with the properties swapped: the
     * previous Release (a lower function version) as ResourceProperties, the failed one as OldResourceProperties.
     * It may reach the new code (the ServiceToken names $LATEST), which would run the failing migration again and
     * leave the stack UPDATE_ROLLBACK_FAILED; instead it only checks that each role connects, and succeeds.
     * The failing migration: this release's newest one, its history row removed after the Create, so that it is
     * pending again and clashes with what it created.
     */
    @Test
    void theRollbackAfterAFailedMigrationSucceedsWithoutMigratingAgain() throws Exception {
        RunDatabase database = run.database("rollback");
        var create = run.event("Create", true);
        release(create, "ResourceProperties", 6);
        assertEquals(
                "SUCCESS",
                run.invoke(create, database, Map.of()).answer().get("Status").asText());
        String latest = MigrationFunctionRun.latestVersion(database);
        try (Connection c = database.connect();
                var statement = c.createStatement()) {
            statement.execute("DELETE FROM flyway_schema_history WHERE version = '" + latest + "'");
        }
        String before = MigrationFunctionRun.versionOf(database);

        var forward = run.event("Update", true);
        release(forward, "ResourceProperties", 7);
        release(forward, "OldResourceProperties", 6);
        var failed = run.invoke(forward, database, Map.of());
        JsonNode failedAnswer = failed.answer();
        assertEquals("FAILED", failedAnswer.get("Status").asText(), "migration V" + latest + " fails when run again");
        assertTrue(failedAnswer.get("Reason").asText().contains("still at version " + before), failedAnswer.toString());

        var rollback = run.event("Update", true);
        release(rollback, "ResourceProperties", 6);
        release(rollback, "OldResourceProperties", 7);
        var rolledBack = run.invoke(rollback, database, Map.of());

        JsonNode answer = rolledBack.answer();
        assertEquals("SUCCESS", answer.get("Status").asText(), rolledBack.output());
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
        assertEquals(before, answer.path("Data").path("SchemaVersion").asText(), answer.toString());
        assertFalse(rolledBack.output().contains("migrating the schema"), "the migration did not run again");
        assertEquals(before, MigrationFunctionRun.versionOf(database));
    }

    /** The function's published version, as the template's Release is: {@code !Ref DatabaseMigrationFunction.Version}. */
    private static void release(ObjectNode event, String properties, int version) {
        ObjectNode target = event.has(properties)
                ? (ObjectNode) event.get(properties)
                : event.putObject(properties)
                        .setAll((ObjectNode) event.get("ResourceProperties").deepCopy());
        target.put(
                "Release",
                "arn:aws:lambda:us-east-1:000000000000:function:pastebin-DatabaseMigrationFunction:" + version);
    }

    /**
     * A lock this test holds on pastes blocks V7 for as long as the test wants, so the run cannot finish before
     * its deadline (the function's 300 s less a 295 s margin) whatever the machine's speed: it answers FAILED and
     * closes its connections, and once the lock is released the server rolls the blocked migration back.
     */
    @Test
    void aRunPastItsDeadlineAnswersFailedAndLeavesTheSchema() throws Exception {
        RunDatabase database = run.database("slow");
        MigrationFunctionRun.migrateTo(database, "6");
        try (Connection lock = database.connect()) {
            lock.setAutoCommit(false);
            try (var statement = lock.createStatement()) {
                statement.execute("LOCK TABLE pastes IN ACCESS EXCLUSIVE MODE");
            }

            var invocation = run.invoke(
                    run.event("Update", true), database, Map.of("PASTEBIN_MIGRATION_DEADLINE_MARGIN", "295s"));

            JsonNode answer = invocation.answer();
            assertEquals("FAILED", answer.get("Status").asText(), invocation.output());
            assertTrue(
                    answer.get("Reason").asText().contains("did not finish before the function's timeout"),
                    answer.toString());
            assertEquals(
                    "pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
            lock.rollback();
        }
        // The migration's session ends when it finds its client gone; only then is its outcome final.
        await().atMost(Duration.ofSeconds(60)).until(() -> otherSessions(database) == 0);
        assertEquals("6", MigrationFunctionRun.versionOf(database));
        assertFalse(hasColumn(database, "language"));
    }

    @Test
    void aContextThatCannotStartAnswersFailedWithTheSetting() throws Exception {
        RunDatabase database = run.database("nostart");

        var invocation =
                run.invoke(run.event("Create", true), database, Map.of("PASTEBIN_MIGRATION_DEADLINE_MARGIN", "soon"));

        JsonNode answer = invocation.answer();
        assertEquals("FAILED", answer.get("Status").asText(), invocation.output());
        String reason = answer.get("Reason").asText();
        assertTrue(reason.contains("cannot start") && reason.contains("soon"), reason);
        assertEquals(0, invocation.exitCode(), "the answer is the outcome; the invocation itself succeeds");
    }

    /**
     * The deploy's first step is its health check: against a TLS-only PostgreSQL whose certificate the configured
     * CA did not sign, the resource fails the deploy with the words that name the trust anchor, instead of leaving
     * functions that answer 503.
     */
    @Test
    void aWrongTrustAnchorFailsTheDeployNamingTheSettingToCheck() throws Exception {
        try (TlsPostgres tls = TlsPostgres.start()) {
            var invocation = run.invoke(
                    run.event("Create", true),
                    run.database("wrongca"),
                    Map.of(
                            "DATASOURCES_DEFAULT_URL", tls.jdbcUrl("localhost", "sslmode=verify-full"),
                            "PASTEBIN_DATABASE_TLS_REQUIRED", "true",
                            "PASTEBIN_DATABASE_TLS_CA_BUNDLE",
                                    tls.otherCaCertificate().toString()));

            JsonNode answer = invocation.answer();
            assertEquals("FAILED", answer.get("Status").asText(), invocation.output());
            String reason = answer.get("Reason").asText();
            assertTrue(reason.contains("DatabaseTrustAnchor"), reason);
            assertTrue(reason.length() < 1000, reason);
        }
    }

    private static boolean hasColumn(RunDatabase database, String column) throws SQLException {
        try (Connection c = database.connect();
                var q = c.prepareStatement("SELECT count(*) FROM information_schema.columns"
                        + " WHERE table_name = 'pastes' AND column_name = ?")) {
            q.setString(1, column);
            try (var rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private static int otherSessions(RunDatabase database) throws SQLException {
        try (Connection c = database.connect();
                var q = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()")) {
            q.setString(1, database.name());
            try (var rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
