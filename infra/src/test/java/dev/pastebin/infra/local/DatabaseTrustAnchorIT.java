package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.core.support.TlsPostgres;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The built create function, invoked as a user invokes it ({@code infra/local/invoke} with the sample event
 * infra/events/create-paste-json.json), against a TLS-only PostgreSQL of the test's own ({@link TlsPostgres}), as
 * the template configures it: {@code sslmode=verify-full}, {@code DatabaseTrustAnchor=ca-bundle}, verify-full
 * required. With the CA that signed the server's certificate it stores the paste; with another CA it answers 503,
 * and its log says the trust anchor is the problem and which setting to check.
 */
@RealServices
class DatabaseTrustAnchorIT {

    private static TlsPostgres postgres;
    private static TestQueues.Pair queue;
    private static Map<String, String> names;

    @BeforeAll
    static void resources() throws Exception {
        postgres = TlsPostgres.start();
        Map<String, Object> migration = new HashMap<>(connection(postgres.caCertificate()));
        migration.put("flyway.datasources.default.enabled", true);
        try (var context = ApplicationContext.run(migration)) {
            context.getBean(DataSource.class);
        }
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "tls-anchor", 10, 30);
            String bucket = "tls-anchor-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
            names = TestSupport.physicalNames(queue, bucket);
        }
    }

    @AfterAll
    static void cleanUp() throws Exception {
        if (queue != null) {
            try (var context = ApplicationContext.run()) {
                TestQueues.delete(context.getBean(SqsClient.class), queue);
            }
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void withTheRightCaTheBuiltFunctionStoresThePaste() throws Exception {
        LocalInvokeIT.Run run = invokeCreate(postgres.caCertificate());

        JsonNode response = Json.MAPPER.readTree(run.stdout());
        assertEquals(201, response.get("statusCode").asInt(), run.stdout() + run.stderr());
        String code = Json.MAPPER
                .readTree(response.get("body").asText())
                .get("shortCode")
                .asText();
        try (Connection connection = DriverManager.getConnection(
                        postgres.jdbcUrl("localhost", "sslmode=verify-full&sslrootcert=" + postgres.caCertificate()),
                        "postgres",
                        "unused");
                var query = connection.prepareStatement("SELECT status FROM pastes WHERE short_code = ?")) {
            query.setString(1, code);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next(), "the row of " + code + " is stored");
            }
        }
    }

    @Test
    void withAWrongCaTheBuiltFunctionAnswers503AndItsLogNamesTheTrustAnchor() throws Exception {
        LocalInvokeIT.Run run = invokeCreate(postgres.otherCaCertificate());

        JsonNode response = Json.MAPPER.readTree(run.stdout());
        assertEquals(503, response.get("statusCode").asInt(), run.stdout() + run.stderr());
        assertFalse(
                response.get("body").asText().contains("certificate"),
                "the client is told nothing of the cause: " + response);
        String log = run.stderr();
        assertTrue(log.contains("database unavailable"), log);
        assertTrue(log.contains("certificate"), "the log names the certificate problem: " + log);
        assertTrue(log.contains("DatabaseTrustAnchor"), "the log names the setting to check: " + log);
    }

    private static LocalInvokeIT.Run invokeCreate(Path trustedCa) throws Exception {
        // The env-vars file the functions get (sam local invoke's format): this one comes after lib.sh's and wins.
        Map<String, Object> parameters = new LinkedHashMap<>();
        connection(trustedCa)
                .forEach((property, value) -> parameters.put(
                        property.replace('.', '_').replace('-', '_').toUpperCase(java.util.Locale.ROOT), value));
        parameters.put("AWS_S3_PATH_STYLE_ACCESS_ENABLED", "true");
        Path envVars = Files.createTempFile("tls-anchor-env-", ".json");
        try {
            Files.writeString(envVars, Json.MAPPER.writeValueAsString(Map.of("Parameters", parameters)));
            return LocalInvokeIT.invoke(
                    names,
                    "CreatePasteFunction",
                    "infra/events/create-paste-json.json",
                    "--env-vars",
                    envVars.toString());
        } finally {
            Files.deleteIfExists(envVars);
        }
    }

    /** The template's kind of database settings against the test's cluster, trusting {@code ca}. */
    private static Map<String, String> connection(Path ca) {
        return Map.of(
                "datasources.default.url",
                postgres.jdbcUrl("localhost", "sslmode=verify-full&connectTimeout=5&socketTimeout=10"),
                "datasources.default.username",
                "postgres",
                "datasources.default.password",
                "unused (trust authentication)",
                "pastebin.database.tls.trust-anchor",
                "ca-bundle",
                "pastebin.database.tls.ca-bundle",
                ca.toString(),
                "pastebin.database.tls.required",
                "true");
    }
}
