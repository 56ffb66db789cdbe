package dev.pastebin.core.config;

import com.zaxxer.hikari.util.Credentials;
import com.zaxxer.hikari.util.DriverDataSource;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;

/**
 * On AWS the database credentials of every function live in a Secrets Manager secret (the JSON an
 * RDS-managed secret has: {@code {"username": ..., "password": ...}}); the template passes only its ARN, as
 * {@code PASTEBIN_DATABASE_SECRET_ID}. Before the default datasource's pool is built, this reads the secret
 * (one GetSecretValue) and has the pool open its connections through a {@link SecretCredentialsDataSource},
 * which re-reads the secret when PostgreSQL rejects the password: a rotated secret is picked up by the running
 * function, and by one restored from a SnapStart snapshot taken before the rotation. Without that property
 * (locally, in tests) the bean does not exist and the configured username and password are used.
 *
 * <p>Why not micronaut-aws-secretsmanager's distributed configuration: it discovers secrets with
 * ListSecrets (a permission that cannot be limited to one secret) under a {@code /config/<app>/} naming
 * convention that RDS-managed secrets ({@code rds!db-...}) do not follow, and it needs a bootstrap context.
 * One GetSecretValue on one ARN is the least privilege the template can grant. Why not AWS's
 * aws-secretsmanager-jdbc driver, which also retries on 28P01: it builds a second, static Secrets Manager
 * client configured apart from the application's, brings jackson-databind and a cache library into every
 * function, and needs its own JDBC URL scheme with the secret's ARN as the user name.
 */
@Singleton
@Requires(property = DatabaseSecretCredentials.SECRET_ID)
public class DatabaseSecretCredentials implements BeanCreatedEventListener<DatasourceConfiguration> {

    static final String SECRET_ID = "pastebin.database.secret-id";

    private final BeanProvider<SecretsManagerClient> secretsManager;
    private final ObjectMapper objectMapper;
    private final String secretId;

    public DatabaseSecretCredentials(
            BeanProvider<SecretsManagerClient> secretsManager,
            ObjectMapper objectMapper,
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
        var secret = new DatabaseSecret(
                secretId, new SecretsManagerValues(secretsManager, secretId), objectMapper, Clock.systemUTC());
        // What Hikari would have opened connections with, minus the credentials: those come from the secret.
        var driver = new DriverDataSource(
                datasource.getJdbcUrl(),
                datasource.getDriverClassName(),
                datasource.getDataSourceProperties(),
                null,
                null);
        datasource.setDataSource(new SecretCredentialsDataSource(driver, secret));
        // The configured username and password must not linger in the pool's configuration as a second truth.
        datasource.setCredentials(Credentials.of(null, null));
        return datasource;
    }

    /** GetSecretValue on the one ARN the template grants; the stage is a parameter of the same call. */
    private record SecretsManagerValues(BeanProvider<SecretsManagerClient> client, String secretId)
            implements DatabaseSecret.SecretValues {

        @Override
        public String current() {
            return client.get().getSecretValue(b -> b.secretId(secretId)).secretString();
        }

        @Override
        public Optional<String> pending() {
            try {
                return Optional.ofNullable(client.get()
                        .getSecretValue(b -> b.secretId(secretId).versionStage("AWSPENDING"))
                        .secretString());
            } catch (ResourceNotFoundException noVersionHasTheStage) {
                return Optional.empty();
            }
        }
    }
}
