package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.testkit.RunDatabase;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What PostgreSQL receives when the migration function gives the roles their secrets' passwords, read on the wire
 * (a capturing proxy between the built function and the server): never a password, only a SCRAM verifier computed
 * by the client, and only for a role that cannot already log in with its secret. The server logs the text of a
 * failing statement by default, and every ALTER ROLE under log_statement = ddl; a verifier in that text is not a
 * password. The roles are the cluster's, so the tests run in order.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseRolePasswordsIT {

    /** pgjdbc's PGConnection.alterUserPassword: ALTER USER "role" PASSWORD 'SCRAM-SHA-256$...'. */
    private static final Pattern PASSWORD_CHANGE = Pattern.compile(
            "ALTER (?:USER|ROLE) \"?([a-z_]+)\"? [^\\x00]*?PASSWORD '([^']*)'", Pattern.CASE_INSENSITIVE);

    private MigrationFunctionRun run;
    private WireCapture wire;
    private RunDatabase database;

    @BeforeAll
    void start() throws Exception {
        run = new MigrationFunctionRun();
        wire = new WireCapture(MigrationFunctionRun.HOST, MigrationFunctionRun.port());
        database = run.database("passwords");
    }

    @AfterAll
    void stop() throws Exception {
        wire.close();
        run.close();
    }

    /** The function's connections go through the capture, in clear (TLS would hide the bytes). */
    private String invokeThroughTheWire(String requestType) throws Exception {
        wire.clear();
        var invocation = run.invoke(
                run.event(requestType, true),
                database,
                Map.of(
                        "DATASOURCES_DEFAULT_URL",
                        "jdbc:postgresql://127.0.0.1:" + wire.port() + "/" + database.name()
                                + "?sslmode=disable&gssEncMode=disable"));
        assertEquals("SUCCESS", invocation.answer().get("Status").asText(), invocation.output());
        wire.awaitNoClients();
        return wire.sent();
    }

    private static List<String> rolesGivenAPassword(String sent) {
        Matcher m = PASSWORD_CHANGE.matcher(sent);
        return m.results().map(r -> r.group(1)).sorted().toList();
    }

    private void assertEachRoleLogsInWithItsSecret() throws Exception {
        for (String role : SchemaRequest.ROLES) {
            try (Connection connection = run.connectAs(database, role)) {
                assertTrue(connection.isValid(5), role);
            }
        }
    }

    /** The part of a password that SQL quoting leaves as it is (the test passwords end in quotes and a dollar). */
    private static String unquotedPart(String password) {
        return password.substring(0, password.indexOf('\''));
    }

    @Test
    @Order(1)
    void theFirstRunSendsEachRoleAScramVerifierAndNoPassword() throws Exception {
        String sent = invokeThroughTheWire("Create");

        assertEachRoleLogsInWithItsSecret();
        for (String password : run.passwords()) {
            assertFalse(sent.contains(unquotedPart(password)), "a password reached the server");
        }
        Matcher m = PASSWORD_CHANGE.matcher(sent);
        int changes = 0;
        while (m.find()) {
            changes++;
            assertTrue(m.group(2).startsWith("SCRAM-SHA-256$4096:"), "a verifier, not a password: " + m.group(2));
        }
        assertEquals(SchemaRequest.ROLES.size(), changes, "each role given its password once");
    }

    /** Every role already logs in with its secret: nothing about passwords is sent at all. */
    @Test
    @Order(2)
    void aRunWithUnchangedSecretsSendsNoPassword() throws Exception {
        String sent = invokeThroughTheWire("Update");

        assertEquals(List.of(), rolesGivenAPassword(sent));
        assertFalse(
                Pattern.compile("ALTER\\s+(USER|ROLE)", Pattern.CASE_INSENSITIVE)
                        .matcher(sent)
                        .find(),
                "no role was altered");
        assertEachRoleLogsInWithItsSecret();
    }

    /** A rotated secret: its role alone is given the new password, as a verifier. */
    @Test
    @Order(3)
    void aChangedSecretIsTheOnlyPasswordSent() throws Exception {
        String rotated = run.changePassword("pastebin_upload");

        String sent = invokeThroughTheWire("Update");

        assertEquals(List.of("pastebin_upload"), rolesGivenAPassword(sent));
        assertFalse(sent.contains(unquotedPart(rotated)), "the new password reached the server");
        assertEachRoleLogsInWithItsSecret();
    }
}
