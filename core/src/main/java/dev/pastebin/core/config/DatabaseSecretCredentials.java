package dev.pastebin.core.config;

import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.io.IOException;

/**
 * On AWS the database credentials of every function live in a Secrets Manager secret (the JSON an
 * RDS-managed secret has: {@code {"username": ..., "password": ...}}); the template passes only its ARN, as
 * {@code PASTEBIN_DATABASE_SECRET_ID}. This sets them on the default datasource's configuration before the
 * pool is built, with one GetSecretValue call at start-up. Without that property (locally, in tests) the
 * bean does not exist and the configured username and password are used.
 *
 * <p>Why not micronaut-aws-secretsmanager's distributed configuration: it discovers secrets with
 * ListSecrets (a permission that cannot be limited to one secret) under a {@code /config/<app>/} naming
 * convention that RDS-managed secrets ({@code rds!db-...}) do not follow, and it needs a bootstrap context.
 * One GetSecretValue on one ARN is the least privilege the template can grant.
 */
@Singleton
@Requires(property = DatabaseSecretCredentials.SECRET_ID)
public class DatabaseSecretCredentials implements BeanCreatedEventListener<DatasourceConfiguration> {

    static final String SECRET_ID = "pastebin.database.secret-id";

    private final BeanProvider<SecretsManagerClient> secretsManager;
    private final ObjectMapper objectMapper;
    private final String secretId;

    public DatabaseSecretCredentials(BeanProvider<SecretsManagerClient> secretsManager, ObjectMapper objectMapper,
                                     @Value("${" + SECRET_ID + "}") String secretId) {
        this.secretsManager = secretsManager;
        this.objectMapper = objectMapper;
        this.secretId = secretId;
    }

    @Override
    public DatasourceConfiguration onCreated(BeanCreatedEvent<DatasourceConfiguration> event) {
        DatasourceConfiguration datasource = event.getBean();
        if (!"default".equals(datasource.getName())) {
            return datasource;
        }
        String json = secretsManager.get().getSecretValue(b -> b.secretId(secretId)).secretString();
        if (json == null) {
            throw new IllegalStateException("secret " + secretId + " has no string value: expected JSON with username and password");
        }
        Credentials credentials;
        try {
            credentials = objectMapper.readValue(json, Credentials.class);
        } catch (IOException e) {
            // never the value itself in the message: it is a password
            throw new IllegalStateException("secret " + secretId + " is not JSON with username and password", e);
        }
        if (credentials == null || isBlank(credentials.username()) || isBlank(credentials.password())) {
            throw new IllegalStateException("secret " + secretId + " lacks a username or password");
        }
        datasource.setUsername(credentials.username());
        datasource.setPassword(credentials.password());
        return datasource;
    }

    private static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }

    /** The fields of the secret this needs; an RDS secret also has engine, host, port, ... which are ignored. */
    @Serdeable.Deserializable
    record Credentials(@Nullable String username, @Nullable String password) {
    }
}
