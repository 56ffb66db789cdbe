package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.TlsPostgres;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The default datasource, configured as every function configures it (core's {@link DatabaseTls}, applied to
 * {@code datasources.default}), reaches a PostgreSQL with TLS on over a verified connection, as the template
 * deploys it: {@code DatabaseUrl} with {@code sslmode=verify-full}, the trust anchor from
 * {@code pastebin.database.tls.*}. A CA that did not sign the server's certificate, and a host name the
 * certificate is not for, are refused; a missing CA bundle fails the start with what to do.
 */
class DatabaseTlsIT {

    private static TlsPostgres postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = TlsPostgres.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void theTemplatesVerifyFullUrlConnectsOverTlsWithThePackedCaBundle() throws Exception {
        try (var context = start(
                postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                Map.of(
                        "pastebin.database.tls.ca-bundle",
                        postgres.caCertificate().toString()))) {
            assertConnectedOverTls(context);
        }
    }

    @Test
    void credentialsFromASecretConnectWithTheTrustAnchorToo() throws Exception {
        // As deployed: the secret's listener opens the connections, with the properties the TLS listener set first.
        try (var secretsManager = SecretsManagerClient.create()) {
            String secretArn = secretsManager
                    .createSecret(b -> b.name("pastebin-tls-it-" + UUID.randomUUID())
                            .secretString("{\"username\":\"postgres\",\"password\":\"unused\"}"))
                    .arn();
            try (var context = start(
                    postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                    Map.of(
                            "pastebin.database.secret-id",
                            secretArn,
                            "pastebin.database.tls.ca-bundle",
                            postgres.caCertificate().toString()))) {
                assertConnectedOverTls(context);
            } finally {
                secretsManager.deleteSecret(b -> b.secretId(secretArn).forceDeleteWithoutRecovery(true));
            }
        }
    }

    @Test
    void verifyCaConnectsWithTheCaBundleToo() throws Exception {
        try (var context = start(
                postgres.jdbcUrl("localhost", "sslmode=verify-ca"),
                Map.of(
                        "pastebin.database.tls.trust-anchor",
                        "ca-bundle",
                        "pastebin.database.tls.ca-bundle",
                        postgres.caCertificate().toString()))) {
            assertConnectedOverTls(context);
        }
    }

    @Test
    void aCaThatDidNotSignTheServersCertificateIsRefused() {
        try (var context = start(
                postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                Map.of(
                        "pastebin.database.tls.ca-bundle",
                        postgres.otherCaCertificate().toString()))) {
            SQLException refused = assertThrows(SQLException.class, () -> connect(context));
            assertTrue(chain(refused).contains("SSL error"), chain(refused));
        }
    }

    @Test
    void aHostNameTheCertificateIsNotForIsRefused() {
        // The certificate names localhost only: 127.0.0.1 is the same server under a name it does not vouch for.
        try (var context = start(
                postgres.jdbcUrl("127.0.0.1", "sslmode=verify-full"),
                Map.of(
                        "pastebin.database.tls.ca-bundle",
                        postgres.caCertificate().toString()))) {
            SQLException refused = assertThrows(SQLException.class, () -> connect(context));
            assertTrue(chain(refused).contains("hostname 127.0.0.1 could not be verified"), chain(refused));
        }
    }

    @Test
    void theJdkTrustStoreIsUsedWhenChosenAndDoesNotKnowAPrivateCa() {
        // What an RDS Proxy deploy chooses (its ACM certificates chain to CAs the JDK trusts); the test's CA is not
        // one.
        try (var context = start(
                postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                Map.of(
                        "pastebin.database.tls.trust-anchor",
                        "jdk-trust-store",
                        "pastebin.database.tls.ca-bundle",
                        postgres.caCertificate().toString()))) {
            SQLException refused = assertThrows(SQLException.class, () -> connect(context));
            assertTrue(chain(refused).contains("PKIX path building failed"), chain(refused));
        }
    }

    @Test
    void aMissingCaBundleFailsTheStartWithWhatToDo() {
        Path missing = postgres.caCertificate().resolveSibling("absent/database-ca-bundle.pem");
        RuntimeException failure = assertThrows(
                RuntimeException.class,
                () -> start(
                                postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                                Map.of("pastebin.database.tls.ca-bundle", missing.toString()))
                        .close());
        String message = chain(failure);
        assertTrue(message.contains(missing.toString()), message);
        assertTrue(message.contains("infra/tls/README.md"), message);
        assertTrue(message.contains("DatabaseTrustAnchor=jdk-trust-store"), message);
    }

    @Test
    void aFileWithoutCertificatesFailsTheStart() {
        Path notPem = postgres.caCertificate().resolveSibling("server.ext");
        RuntimeException failure = assertThrows(
                RuntimeException.class,
                () -> start(
                                postgres.jdbcUrl("localhost", "sslmode=verify-full"),
                                Map.of("pastebin.database.tls.ca-bundle", notPem.toString()))
                        .close());
        assertTrue(chain(failure).contains("cannot be read as PEM certificates"), chain(failure));
    }

    @Test
    void aTrustAnchorInTheUrlFailsTheStartAsASecondTruth() {
        RuntimeException failure = assertThrows(
                RuntimeException.class,
                () -> start(
                                postgres.jdbcUrl(
                                        "localhost", "sslmode=verify-full&sslrootcert=" + postgres.caCertificate()),
                                Map.of(
                                        "pastebin.database.tls.ca-bundle",
                                        postgres.caCertificate().toString()))
                        .close());
        assertTrue(chain(failure).contains("sslrootcert"), chain(failure));
    }

    @Test
    void aUrlThatVerifiesNothingNeedsNoCaBundle() throws Exception {
        // The local run and the tests: no TLS, no bundle, unchanged.
        try (var context = start(
                        postgres.jdbcUrl("localhost", "sslmode=disable"),
                        Map.of("pastebin.database.tls.ca-bundle", "/nonexistent/database-ca-bundle.pem"));
                Connection connection = connect(context);
                ResultSet row = connection
                        .createStatement()
                        .executeQuery("select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
            assertTrue(row.next());
            assertTrue(!row.getBoolean(1), "sslmode=disable must not use TLS");
        }
    }

    private static ApplicationContext start(String url, Map<String, Object> tls) {
        Map<String, Object> properties = new HashMap<>(tls);
        properties.put("datasources.default.url", url);
        properties.put("datasources.default.username", "postgres");
        properties.put("datasources.default.password", "unused (trust authentication)");
        properties.put("datasources.default.connection-timeout", 5000);
        // As in the functions: the start does not connect; a refused connection is the first request's 503.
        properties.put("datasources.default.initialization-fail-timeout", -1);
        properties.put("flyway.datasources.default.enabled", false);
        return ApplicationContext.run(properties);
    }

    private static Connection connect(ApplicationContext context) throws SQLException {
        // The pool itself: the bean is Micronaut Data's proxy, which hands out only a transaction's connection.
        return DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class))
                .getConnection();
    }

    private static void assertConnectedOverTls(ApplicationContext context) throws SQLException {
        try (Connection connection = connect(context);
                ResultSet row = connection
                        .createStatement()
                        .executeQuery("select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
            assertTrue(row.next());
            assertTrue(row.getBoolean(1), "the connection must use TLS");
        }
    }

    private static String chain(Throwable failure) {
        var messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getClass().getName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return messages.toString();
    }
}
