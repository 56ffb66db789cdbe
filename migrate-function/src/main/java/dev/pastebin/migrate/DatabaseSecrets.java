package dev.pastebin.migrate;

import dev.pastebin.core.config.DatabaseCredentials;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** Reads the credentials of a secret the custom resource names (one GetSecretValue, the only call allowed). */
@Singleton
class DatabaseSecrets {

    private final SecretsManagerClient secretsManager;
    private final ObjectMapper objectMapper;

    DatabaseSecrets(SecretsManagerClient secretsManager, ObjectMapper objectMapper) {
        this.secretsManager = secretsManager;
        this.objectMapper = objectMapper;
    }

    /**
     * @throws IllegalStateException when the secret cannot be read or lacks a username or password; the message
     *                               names the secret, never its value
     */
    DatabaseCredentials read(String secretArn) {
        String json;
        try {
            json = secretsManager.getSecretValue(b -> b.secretId(secretArn)).secretString();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read secret " + secretArn + ": " + Reasons.describe(e), e);
        }
        DatabaseCredentials credentials;
        try {
            credentials = json == null ? null : objectMapper.readValue(json, DatabaseCredentials.class);
        } catch (IOException e) {
            // Not the parser's message: it may quote the input, i.e. the password.
            throw new IllegalStateException("secret " + secretArn + " is not JSON with username and password ("
                    + e.getClass().getSimpleName() + ")");
        }
        if (credentials == null || isBlank(credentials.username()) || isBlank(credentials.password())) {
            throw new IllegalStateException("secret " + secretArn + " lacks a username or password");
        }
        return credentials;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
