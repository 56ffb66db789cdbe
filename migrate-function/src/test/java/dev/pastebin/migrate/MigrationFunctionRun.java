package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.customresource.support.ResponseUrl;
import dev.pastebin.testkit.RunDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * What the migration function's ITs share: the built function invoked through the local runtime
 * ({@code infra/local/invoke DatabaseMigrationFunction <event>}, a fresh function JVM each time, as Lambda runs it)
 * with CloudFormation's own requests (infra/events/database-schema-*.json), their ResponseURL pointed at a local
 * server; the secrets in LocalStack; databases of their own ({@code migrate_*}) on the shared PostgreSQL.
 */
final class MigrationFunctionRun implements AutoCloseable {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final ObjectMapper JSON = new ObjectMapper();
    static final String HOST = "127.0.0.1";

    record Invocation(int exitCode, String stdout, String stderr, JsonNode answer) {

        String output() {
            return stdout + stderr;
        }
    }

    final String run = UUID.randomUUID().toString().substring(0, 8);
    final ResponseUrl responseUrl;
    final SecretsManagerClient secretsManager;
    final String ownerSecretArn;
    final Map<String, String> roleSecretArns = new LinkedHashMap<>();
    final Map<String, String> rolePasswords = new LinkedHashMap<>();
    private final List<RunDatabase> databases = new ArrayList<>();
    private final List<String> secrets = new ArrayList<>();

    MigrationFunctionRun() throws IOException {
        responseUrl = new ResponseUrl();
        secretsManager = SecretsManagerClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        ownerSecretArn = secret("owner", ownerUser(), ownerPassword());
        for (String role : SchemaRequest.ROLES) {
            String password = "pw-" + UUID.randomUUID() + "'\"$x";
            rolePasswords.put(role, password);
            roleSecretArns.put(role, secret(role, role, password));
        }
    }

    private String secret(String name, String username, String password) {
        String secretName = "migrate-" + run + "-" + name;
        ObjectNode value = JSON.createObjectNode().put("username", username).put("password", password);
        String arn = secretsManager
                .createSecret(b -> b.name(secretName).secretString(value.toString()))
                .arn();
        secrets.add(arn);
        return arn;
    }

    /** A database of this run's, empty; dropped on close. */
    RunDatabase database(String purpose) throws SQLException {
        RunDatabase database =
                new RunDatabase(HOST, port(), ownerUser(), ownerPassword(), "migrate_" + purpose + "_" + run);
        database.drop();
        try (Connection admin = DriverManager.getConnection(
                        "jdbc:postgresql://" + HOST + ":" + port() + "/postgres", ownerUser(), ownerPassword());
                var statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + database.name());
        }
        databases.add(database);
        return database;
    }

    /** Core's migrations up to {@code version} applied to the database, as an earlier release left it. */
    static void migrateTo(RunDatabase database, String version) {
        Flyway.configure()
                .dataSource(database.url(), ownerUser(), ownerPassword())
                .locations(RunDatabase.MIGRATIONS)
                .target(version)
                .load()
                .migrate();
    }

    /** The newest schema version this build carries (core's db/migration). */
    static String latestVersion(RunDatabase database) {
        MigrationInfo[] all = Flyway.configure()
                .dataSource(database.url(), ownerUser(), ownerPassword())
                .locations(RunDatabase.MIGRATIONS)
                .load()
                .info()
                .all();
        return all[all.length - 1].getVersion().getVersion();
    }

    /** The version the database's flyway_schema_history says it is at. */
    static String versionOf(RunDatabase database) throws SQLException {
        try (Connection c = database.connect();
                var q = c.createStatement();
                var rs = q.executeQuery("SELECT max(version::int) FROM flyway_schema_history WHERE success")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** CloudFormation's request of this type, for the database, answered to the local server. */
    ObjectNode event(String requestType, boolean withOwner) throws IOException {
        ObjectNode event = (ObjectNode) JSON.readTree(
                ROOT.resolve("infra/events/database-schema-" + requestType.toLowerCase(java.util.Locale.ROOT) + ".json")
                        .toFile());
        URI answerTo = responseUrl.uri("/" + run + "/" + requestType + "?X-Amz-Signature=abc");
        event.put("ResponseURL", answerTo.toString());
        event.put("RequestId", UUID.randomUUID().toString());
        ObjectNode properties = (ObjectNode) event.get("ResourceProperties");
        properties.put("OwnerSecretArn", withOwner ? ownerSecretArn : "");
        ObjectNode roles = properties.putObject("RoleSecrets");
        roleSecretArns.forEach(roles::put);
        return event;
    }

    /**
     * Invokes the built function once with {@code event} against {@code database} and returns what it PUT to the
     * response URL. {@code settings} are more environment variables of the function.
     */
    Invocation invoke(ObjectNode event, RunDatabase database, Map<String, String> settings)
            throws IOException, InterruptedException {
        Path eventFile = Files.createTempFile("migrate-event-", ".json");
        Path envVars = Files.createTempFile("migrate-env-", ".json");
        try {
            Files.writeString(eventFile, event.toString());
            Map<String, String> variables = new HashMap<>();
            variables.put("DATASOURCES_DEFAULT_URL", database.url());
            // the local PostgreSQL has no TLS; the template requires verify-full
            variables.put("PASTEBIN_DATABASE_TLS_REQUIRED", "false");
            variables.putAll(settings);
            Files.writeString(envVars, JSON.writeValueAsString(Map.of("Parameters", variables)));
            ProcessBuilder pb = new ProcessBuilder(
                            ROOT.resolve("infra/local/invoke").toString(),
                            "DatabaseMigrationFunction",
                            eventFile.toString(),
                            "--env-vars",
                            envVars.toString())
                    .directory(ROOT.toFile());
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process p = pb.start();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            String out = read(p.getInputStream());
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "invoke finished");
            String stderr = err.join();
            JsonNode answer = JSON.readTree(responseUrl.next().body());
            assertEquals(
                    event.get("RequestId").asText(),
                    answer.path("RequestId").asText(),
                    "the answer to this request: " + answer + "\n" + stderr);
            return new Invocation(p.exitValue(), out, stderr, answer);
        } finally {
            Files.deleteIfExists(eventFile);
            Files.deleteIfExists(envVars);
        }
    }

    /** A connection to the database as a role, with the password its secret holds. */
    Connection connectAs(RunDatabase database, String role) throws SQLException {
        return DriverManager.getConnection(database.url(), role, rolePasswords.get(role));
    }

    /** Gives the role's secret a new password (as a rotation would); the role keeps its old one until a run. */
    String changePassword(String role) {
        String password = "pw-" + UUID.randomUUID() + "'\"$x";
        String value = JSON.createObjectNode()
                .put("username", role)
                .put("password", password)
                .toString();
        secretsManager.putSecretValue(b -> b.secretId(roleSecretArns.get(role)).secretString(value));
        rolePasswords.put(role, password);
        return password;
    }

    /** The roles' passwords, for checking that none reaches a log line or an answer. */
    List<String> passwords() {
        return List.copyOf(rolePasswords.values());
    }

    @Override
    public void close() throws Exception {
        responseUrl.close();
        for (String arn : secrets) {
            secretsManager.deleteSecret(b -> b.secretId(arn).forceDeleteWithoutRecovery(true));
        }
        secretsManager.close();
        for (RunDatabase database : databases) {
            database.drop();
        }
    }

    static int port() {
        return Integer.parseInt(env("PASTEBIN_DB_PORT", "5432"));
    }

    static String ownerUser() {
        return env("DATASOURCES_DEFAULT_USERNAME", "pastebin");
    }

    static String ownerPassword() {
        return env("DATASOURCES_DEFAULT_PASSWORD", "pastebin");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
