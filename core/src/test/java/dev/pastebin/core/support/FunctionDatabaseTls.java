package dev.pastebin.core.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * For each function module's own test: boots the module's application context (its application.yml and
 * beans, as on AWS) with the template's kind of database URL, {@code sslmode=verify-full}, against a
 * {@link TlsPostgres}, and the trust anchor as the template chooses it ({@code DatabaseTrustAnchor=ca-bundle};
 * the bundle here is the test's CA, where on Lambda it is the packed /var/task/tls/database-ca-bundle.pem)
 * and verify-full required, then opens a connection through the function's pool and checks it runs over TLS.
 */
public final class FunctionDatabaseTls {

    private FunctionDatabaseTls() {}

    public static void assertThePoolConnectsWithVerifyFull() throws Exception {
        try (TlsPostgres postgres = TlsPostgres.start()) {
            Map<String, Object> properties = new HashMap<>();
            properties.put("datasources.default.url", postgres.jdbcUrl("localhost", "sslmode=verify-full"));
            properties.put("datasources.default.username", "postgres");
            properties.put("datasources.default.password", "unused (trust authentication)");
            properties.put("pastebin.database.tls.trust-anchor", "ca-bundle");
            properties.put(
                    "pastebin.database.tls.ca-bundle", postgres.caCertificate().toString());
            properties.put("pastebin.database.tls.required", true);
            properties.put("flyway.datasources.default.enabled", false);
            // The functions' own pool timeout (2 s in upload) is for production; a TLS handshake with a freshly
            // started server on a busy machine may take longer, and this test is about verification, not speed.
            properties.put("datasources.default.connection-timeout", 60_000);
            try (var context = ApplicationContext.run(properties);
                    Connection connection = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class))
                            .getConnection();
                    ResultSet row = connection
                            .createStatement()
                            .executeQuery("select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
                assertTrue(row.next() && row.getBoolean(1), "the function's pool must connect over TLS");
            }
        }
    }
}
