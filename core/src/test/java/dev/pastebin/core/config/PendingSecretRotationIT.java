package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * A single-user rotation as Secrets Manager's rotation function runs it, against the real PostgreSQL and
 * LocalStack: createSecret stores the new password as AWSPENDING, setSecret changes it in the database, and
 * only finishSecret makes it AWSCURRENT. Between setSecret and finishSecret, AWSCURRENT is rejected and only
 * AWSPENDING opens a connection. The role and the secret are this test's own (creating the role needs
 * CREATEROLE, which infra/local/postgres.sh gives the app role).
 */
@RealServices
class PendingSecretRotationIT {

    private final String url = env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
    private final String role =
            "pending_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final String oldPassword = "old-" + UUID.randomUUID().toString().replace("-", "");
    private final String newPassword = "new-" + UUID.randomUUID().toString().replace("-", "");

    private Connection admin;
    private SecretsManagerClient secretsManager;
    private String secretArn;
    private ApplicationContext context;

    @BeforeEach
    void createRoleAndSecret() throws SQLException {
        admin = DriverManager.getConnection(
                url, env("DATASOURCES_DEFAULT_USERNAME", "pastebin"), env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
        // Generated names and passwords only (letters, digits, '-'): safe to write into the DDL.
        execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + oldPassword + "'");
        secretsManager = SecretsManagerClient.create();
        secretArn = secretsManager
                .createSecret(
                        b -> b.name("pastebin-pending-it-" + UUID.randomUUID()).secretString(secretJson(oldPassword)))
                .arn();
        context = ApplicationContext.run(Map.of(
                "datasources.default.url",
                url,
                "pastebin.database.secret-id",
                secretArn,
                "datasources.default.initialization-fail-timeout",
                -1,
                "flyway.datasources.default.enabled",
                false));
    }

    @AfterEach
    void dropRoleAndSecret() throws SQLException {
        if (context != null) {
            context.close();
        }
        if (secretArn != null) {
            secretsManager.deleteSecret(b -> b.secretId(secretArn).forceDeleteWithoutRecovery(true));
        }
        if (secretsManager != null) {
            secretsManager.close();
        }
        if (admin != null) {
            execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
            execute("DROP ROLE IF EXISTS " + role);
            admin.close();
        }
    }

    @Test
    void betweenSetSecretAndFinishSecretTheAwsPendingPasswordConnects() throws Exception {
        assertEquals(role, connectedUser());

        // createSecret, then setSecret: the database has the new password, AWSCURRENT still the old one.
        String pendingVersion = secretsManager
                .putSecretValue(b -> b.secretId(secretArn)
                        .secretString(secretJson(newPassword))
                        .versionStages("AWSPENDING"))
                .versionId();
        execute("ALTER ROLE " + role + " PASSWORD '" + newPassword + "'");
        Thread.sleep(DatabaseSecret.MIN_REREAD_INTERVAL.toMillis() + 100); // past the start-up read's interval

        assertEquals(role, connectedUser(), "AWSCURRENT is rejected: AWSPENDING must be tried");

        // finishSecret: the new version becomes AWSCURRENT; connections keep working without another read.
        String currentVersion =
                secretsManager.describeSecret(b -> b.secretId(secretArn)).versionIdsToStages().entrySet().stream()
                        .filter(e -> e.getValue().contains("AWSCURRENT"))
                        .findFirst()
                        .orElseThrow()
                        .getKey();
        secretsManager.updateSecretVersionStage(b -> b.secretId(secretArn)
                .versionStage("AWSCURRENT")
                .moveToVersionId(pendingVersion)
                .removeFromVersionId(currentVersion));
        assertEquals(role, connectedUser());
    }

    @Test
    void aPendingPasswordTheDatabaseDoesNotKnowYetLeavesTheCurrentOneInUse() throws Exception {
        // createSecret only: AWSPENDING exists, the database still has the old password, which keeps working.
        secretsManager.putSecretValue(
                b -> b.secretId(secretArn).secretString(secretJson(newPassword)).versionStages("AWSPENDING"));
        Thread.sleep(DatabaseSecret.MIN_REREAD_INTERVAL.toMillis() + 100);
        assertEquals(role, connectedUser());
    }

    @Test
    void withoutAPendingVersionTheRejectionIsTheFailure() throws Exception {
        // The password changed in the database by hand: AWSCURRENT is rejected and no rotation is under way.
        execute("ALTER ROLE " + role + " PASSWORD '" + newPassword + "'");
        Thread.sleep(DatabaseSecret.MIN_REREAD_INTERVAL.toMillis() + 100);
        SQLException rejected = assertThrows(SQLException.class, this::connectedUser);
        assertEquals("28P01", rejected.getSQLState());
        assertEquals(0, rejected.getSuppressed().length, "a missing AWSPENDING is no failure of its own");
    }

    /** A new physical connection through the secret's data source (not one the pool may still hold). */
    private String connectedUser() throws SQLException {
        DataSource pool = context.getBean(DataSource.class);
        SecretCredentialsDataSource opener =
                io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(pool)
                        .unwrap(SecretCredentialsDataSource.class);
        try (Connection connection = opener.getConnection();
                Statement sql = connection.createStatement();
                var rs = sql.executeQuery("SELECT current_user")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private void execute(String statement) throws SQLException {
        try (Statement sql = admin.createStatement()) {
            sql.execute(statement);
        }
    }

    private String secretJson(String password) {
        return """
                {"engine":"postgres","username":"%s","password":"%s"}""".formatted(role, password);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
