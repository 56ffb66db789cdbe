package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.DatabaseConnectionDiagnosis;
import dev.pastebin.core.failure.Dependency;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.support.TlsPostgres;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each misconfiguration a deploy can have, against a real TLS-only PostgreSQL through the function's own pool
 * (core's {@link DatabaseTls}, Hikari, pgjdbc, the JDK's TLS): the failure as a request meets it is explained by
 * {@link DatabaseConnectionDiagnosis} with its root cause and the setting to check, and the
 * {@link DependencyUnavailableException} a 503 logs carries that explanation. The chains these produce are the
 * shapes {@code DatabaseConnectionDiagnosisTest} builds.
 */
class DatabaseConnectionDiagnosisIT {

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
    void aWrongCaNamesTheTrustAnchor() {
        String explained = explainedFailure(
                postgres, "localhost", postgres.otherCaCertificate(), "postgres", "unused (trust authentication)");
        assertTrue(explained.contains("does not chain to a CA the function trusts"), explained);
        assertTrue(explained.contains("DatabaseTrustAnchor"), explained);
        assertTrue(explained.contains("pastebin.database.tls.ca-bundle"), explained);
    }

    @Test
    void aWrongHostNameNamesTheHostAndDatabaseUrl() {
        // The certificate names localhost only.
        String explained = explainedFailure(
                postgres, "127.0.0.1", postgres.caCertificate(), "postgres", "unused (trust authentication)");
        assertTrue(explained.contains("not for the host name 127.0.0.1"), explained);
        assertTrue(explained.contains("DatabaseUrl"), explained);
    }

    @Test
    void anExpiredServerCertificateSaysWhenItExpired() throws Exception {
        try (TlsPostgres expired = TlsPostgres.startWithExpiredCertificate()) {
            String explained = explainedFailure(
                    expired, "localhost", expired.caCertificate(), "postgres", "unused (trust authentication)");
            assertTrue(explained.contains("certificate (CN=localhost) expired at 2020-01-02T00:00:00Z"), explained);
        }
    }

    @Test
    void aRefusedPasswordNamesTheFunctionsSecret() {
        String explained = explainedFailure(
                postgres, "localhost", postgres.caCertificate(), TlsPostgres.PASSWORD_USER, "a wrong password");
        assertTrue(explained.contains("SQLSTATE 28P01"), explained);
        assertTrue(explained.contains("user \"" + TlsPostgres.PASSWORD_USER + "\""), explained);
        assertTrue(explained.contains("PASTEBIN_DATABASE_SECRET_ID"), explained);
    }

    @Test
    void theRightSettingsConnectAndTheRightPasswordToo() throws Exception {
        try (var context = start(
                        postgres,
                        "localhost",
                        postgres.caCertificate(),
                        TlsPostgres.PASSWORD_USER,
                        TlsPostgres.PASSWORD);
                Connection connection = connect(context)) {
            assertTrue(connection.isValid(5));
        }
    }

    /** The message of the 503's exception when the pool fails to connect: the explanation is in it. */
    private static String explainedFailure(TlsPostgres server, String host, Path ca, String user, String password) {
        try (var context = start(server, host, ca, user, password)) {
            SQLException failure = assertThrows(SQLException.class, () -> connect(context));
            System.out.println("chain of " + host + "/" + ca.getFileName() + "/" + user + ":\n" + chain(failure));
            String explained = DatabaseConnectionDiagnosis.explain(failure)
                    .orElseThrow(() -> new AssertionError("not explained:\n" + chain(failure)));
            String logged = new DependencyUnavailableException(Dependency.DATABASE, failure).getMessage();
            assertTrue(logged.endsWith(": " + explained), logged);
            return explained;
        }
    }

    private static ApplicationContext start(TlsPostgres server, String host, Path ca, String user, String password) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("datasources.default.url", server.jdbcUrl(host, "sslmode=verify-full"));
        properties.put("datasources.default.username", user);
        properties.put("datasources.default.password", password);
        properties.put("datasources.default.connection-timeout", 3000);
        properties.put("datasources.default.initialization-fail-timeout", -1);
        properties.put("pastebin.database.tls.trust-anchor", "ca-bundle");
        properties.put("pastebin.database.tls.ca-bundle", ca.toString());
        properties.put("pastebin.database.tls.required", true);
        properties.put("flyway.datasources.default.enabled", false);
        return ApplicationContext.run(properties);
    }

    private static Connection connect(ApplicationContext context) throws SQLException {
        return DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class))
                .getConnection();
    }

    private static String chain(Throwable failure) {
        var messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append("  ")
                    .append(t.getClass().getName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return messages.toString();
    }
}
