package dev.pastebin.core.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * A database login of the test's own, a fresh role with a unique password that exists nowhere but in a
 * Secrets Manager secret (LocalStack's), shaped like an RDS-managed one. A function configured with
 * {@link #properties()} can only reach the database through the secret, so a test can look for the password
 * in what it logged. The role is a member of the configured user's role (the tables' owner) and is dropped,
 * with the secret, on close.
 */
public final class DatabaseLoginSecret implements AutoCloseable {

    private final String role =
            "pastebin_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final String password = "pw-" + UUID.randomUUID();
    private final SecretsManagerClient secretsManager;
    private final String arn;

    private DatabaseLoginSecret() {
        adminStatement("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
        adminStatement("GRANT " + env("DATASOURCES_DEFAULT_USERNAME", "pastebin") + " TO " + role);
        // AWS_ENDPOINT_URL and AWS_REGION (set by failsafe) point the SDK at LocalStack.
        secretsManager = SecretsManagerClient.create();
        arn = secretsManager
                .createSecret(b -> b.name("pastebin-it-" + role).secretString("""
                {"engine":"postgres","host":"127.0.0.1","port":5432,"username":"%s","password":"%s"}""".formatted(role, password)))
                .arn();
    }

    public static DatabaseLoginSecret create() {
        return new DatabaseLoginSecret();
    }

    public String password() {
        return password;
    }

    /** The function's configuration: the secret, and configured credentials that would not work. */
    public Map<String, Object> properties() {
        return Map.of(
                "pastebin.database.secret-id",
                arn,
                "datasources.default.username",
                "nobody",
                "datasources.default.password",
                "wrong",
                // migrations are the configured user's business, not this login's
                "flyway.datasources.default.enabled",
                false);
    }

    @Override
    public void close() {
        secretsManager.deleteSecret(b -> b.secretId(arn).forceDeleteWithoutRecovery(true));
        secretsManager.close();
        adminStatement("DROP ROLE IF EXISTS " + role);
    }

    private static void adminStatement(String sql) {
        try (Connection connection = DriverManager.getConnection(
                env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"))) {
            connection.createStatement().execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not run " + sql.replaceAll("PASSWORD '.*'", "PASSWORD ***") + ": " + e.getMessage(), e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
