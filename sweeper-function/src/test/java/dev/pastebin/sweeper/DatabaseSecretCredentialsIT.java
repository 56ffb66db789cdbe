package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.exceptions.BeanInstantiationException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The database credentials come from a Secrets Manager secret (LocalStack's) when
 * {@code pastebin.database.secret-id} is set, and override whatever username and password are configured.
 * Core's {@code DatabaseSecretCredentials} is tested here, in a real function's context (its pool settings,
 * application.yml and all), the way every function starts on AWS.
 */
@RealServices
@OwnDatabase("sweeper")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseSecretCredentialsIT {

    private final List<String> secrets = new ArrayList<>();
    private SecretsManagerClient secretsManager;

    @BeforeAll
    void client() throws Exception {
        String endpoint = System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
        try (var http = HttpClient.newHttpClient()) {
            String health = http.send(
                            HttpRequest.newBuilder(URI.create(endpoint + "/_localstack/health"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertTrue(
                    health.matches("(?s).*\"secretsmanager\": ?\"(running|available)\".*"),
                    "LocalStack at " + endpoint + " does not serve Secrets Manager: add secretsmanager to "
                            + "LOCALSTACK_SERVICES (infra/local/localstack.sh) and restart it. Health: " + health);
        }
        // AWS_ENDPOINT_URL and AWS_REGION (set by failsafe) point the SDK at LocalStack.
        secretsManager = SecretsManagerClient.create();
    }

    @AfterAll
    void deleteSecrets() {
        for (String arn : secrets) {
            secretsManager.deleteSecret(b -> b.secretId(arn).forceDeleteWithoutRecovery(true));
        }
        secretsManager.close();
    }

    @Test
    void theSecretsCredentialsReplaceTheConfiguredOnes() throws Exception {
        // The shape of an RDS-managed secret: more keys than the two that matter.
        String arn = secret("""
                {"engine":"postgres","host":"127.0.0.1","port":5432,"username":"%s","password":"%s","dbname":"pastebin"}""".formatted(
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"), env("DATASOURCES_DEFAULT_PASSWORD", "pastebin")));

        try (ApplicationContext context = start(arn)) {
            DataSource dataSource = context.getBean(DataSource.class);
            try (Connection connection = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                            dataSource)
                    .getConnection()) {
                assertTrue(connection.isValid(5));
                assertEquals(
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        connection.getMetaData().getUserName());
            }
        }
    }

    @Test
    void wrongCredentialsInTheSecretStopTheStartWithoutRevealingThem() {
        String arn = secret("{\"username\":\"pastebin\",\"password\":\"not-the-password-" + UUID.randomUUID() + "\"}");

        var failure =
                assertThrows(BeanInstantiationException.class, () -> start(arn).close());
        assertFalse(failure.getMessage().contains("not-the-password"), failure.getMessage());
    }

    @Test
    void aSecretWithoutAPasswordIsAClearError() {
        String arn = secret("{\"username\":\"pastebin\"}");

        var failure =
                assertThrows(BeanInstantiationException.class, () -> start(arn).close());
        assertTrue(failure.getMessage().contains("lacks a username or password"), failure.getMessage());
    }

    private ApplicationContext start(String secretArn) {
        return ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.database.secret-id", secretArn,
                        // deliberately wrong: only the secret can make the connection work
                        "datasources.default.username", "nobody",
                        "datasources.default.password", "wrong",
                        "flyway.datasources.default.enabled", "false"))
                .start();
    }

    private String secret(String json) {
        String arn = secretsManager
                .createSecret(b -> b.name("pastebin-it-" + UUID.randomUUID()).secretString(json))
                .arn();
        secrets.add(arn);
        return arn;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
