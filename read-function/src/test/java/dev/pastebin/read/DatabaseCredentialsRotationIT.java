package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The database password is rotated while two instances of the HTTP functions (create and read, in one context
 * as in the other tests here) serve requests: first in PostgreSQL, then in the Secrets Manager secret, then
 * every session of the role is terminated so the pools must reconnect. The instances take their credentials
 * only from the secret, and pick up the new password without a restart: no answer other than 201/200/202, 503
 * only just after the rotation, no paste lost, and neither password in any log line.
 *
 * <p>The role and the secret are this test's own (the shared {@code pastebin} role's password is never
 * touched); creating the role needs CREATEROLE, which infra/local/postgres.sh gives the app role.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseCredentialsRotationIT {

    private static final Set<Integer> ACCEPTABLE = Set.of(200, 201, 202, 503);
    /** How long after the rotation a 503 is still acceptable: the time to notice the dead sessions and heal. */
    private static final Duration HEALING = Duration.ofSeconds(5);

    private static final int INSTANCES = 2;
    private static final List<String> CAPTURED_LOGGERS = List.of("dev.pastebin", "com.zaxxer.hikari");

    private final String url = env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
    private final String role =
            "rotation_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final String oldPassword = "old-" + UUID.randomUUID().toString().replace("-", "");
    private final String newPassword = "new-" + UUID.randomUUID().toString().replace("-", "");

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Map<String, Level> levels = new HashMap<>();
    private final List<HttpApi> instances = new ArrayList<>();
    private final List<String> created = new CopyOnWriteArrayList<>();
    private Instant startedAt;
    private Connection admin;
    private boolean roleCreated;
    private SecretsManagerClient secretsManager;
    private SqsClient sqs;
    private TestQueues.Pair queues;
    private String secretArn;

    @BeforeAll
    void start() throws Exception {
        Flyway.configure()
                .dataSource(
                        url,
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"))
                .load()
                .migrate();
        admin = DriverManager.getConnection(
                url, env("DATASOURCES_DEFAULT_USERNAME", "pastebin"), env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
        try (Statement sql = admin.createStatement();
                var rs = sql.executeQuery(
                        "SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user")) {
            assertTrue(
                    rs.next() && rs.getBoolean(1),
                    "the test database user needs CREATEROLE to make a role of its "
                            + "own to rotate: run infra/local/postgres.sh start (it grants it), or ALTER ROLE ... CREATEROLE");
        }
        // Generated names and passwords only (letters, digits, '-'): safe to write into the DDL.
        execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + oldPassword + "'");
        roleCreated = true;
        execute("GRANT SELECT, INSERT, UPDATE ON pastes TO " + role);
        // a create looks its body up in the blocklist, a read of a missing code in the takedowns
        execute("GRANT SELECT ON content_blocklist, takedowns TO " + role);
        // Membership lets the test user terminate the role's sessions.
        execute("GRANT " + role + " TO current_user");

        secretsManager = SecretsManagerClient.create();
        secretArn = secretsManager
                .createSecret(
                        b -> b.name("pastebin-rotation-it-" + UUID.randomUUID()).secretString(secretJson(oldPassword)))
                .arn();
        sqs = SqsClient.create();
        queues = TestQueues.create(sqs, "rotation-it", 10, 30);

        captureLogs();
        for (int i = 0; i < INSTANCES; i++) {
            instances.add(HttpApi.start(Map.of(
                    "pastebin.database.secret-id",
                    secretArn,
                    // deliberately wrong: only the secret can make the connection work
                    "datasources.default.username",
                    "nobody",
                    "datasources.default.password",
                    "wrong",
                    // one connection per instance, as on Lambda
                    "datasources.default.maximum-pool-size",
                    1,
                    "flyway.datasources.default.enabled",
                    false,
                    "pastebin.upload-queue.url",
                    queues.queueUrl(),
                    "pastebin.storage.bucket",
                    "rotation-it-unused")));
        }
        startedAt = Instant.now();
    }

    @AfterAll
    void stop() throws Exception {
        instances.forEach(HttpApi::close);
        releaseLogs();
        if (roleCreated) {
            try (var delete = admin.prepareStatement("DELETE FROM pastes WHERE short_code = ANY (?)")) {
                delete.setArray(1, admin.createArrayOf("varchar", created.toArray()));
                delete.executeUpdate();
            }
            execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
            execute("REVOKE ALL ON pastes, content_blocklist, takedowns FROM " + role);
            execute("DROP ROLE " + role);
        }
        if (admin != null) {
            admin.close();
        }
        if (secretArn != null) {
            secretsManager.deleteSecret(b -> b.secretId(secretArn).forceDeleteWithoutRecovery(true));
        }
        if (secretsManager != null) {
            secretsManager.close();
        }
        if (queues != null) {
            TestQueues.delete(sqs, queues);
        }
        if (sqs != null) {
            sqs.close();
        }
    }

    @Test
    void theFunctionsPickUpARotatedPasswordWithoutARestart() throws Exception {
        List<Answer> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Instant rotatedAt;
        try (ExecutorService load = Executors.newFixedThreadPool(INSTANCES)) {
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                int instance = i;
                loops.add(load.submit(() -> serve(instance, running, answers)));
            }
            // However this ends, the loops stop: the executor's close waits for them.
            try {
                awaitSuccesses(answers, Instant.MIN, 5);
                assertEquals(INSTANCES, rolesSessions(Instant.MIN), "each instance holds its connection, as the role");
                // A rotation comes long after the start-up read of the secret, not within its re-read interval.
                Thread.sleep(Math.max(
                        0,
                        Duration.between(Instant.now(), startedAt.plusSeconds(2))
                                .toMillis()));

                // The order of a rotation: the database first, then the secret.
                execute("ALTER ROLE " + role + " PASSWORD '" + newPassword + "'");
                secretsManager.putSecretValue(b -> b.secretId(secretArn).secretString(secretJson(newPassword)));
                rotatedAt = Instant.now();
                try (Statement sql = admin.createStatement();
                        var rs = sql.executeQuery(
                                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '" + role
                                        + "'")) {
                    assertTrue(rs.next() && rs.getInt(1) >= 1, "no session of the role to terminate");
                }

                awaitSuccesses(answers, rotatedAt, 20);
            } finally {
                running.set(false);
            }
            for (Future<?> loop : loops) {
                loop.get();
            }
        }

        List<Answer> unacceptable =
                answers.stream().filter(a -> !ACCEPTABLE.contains(a.status())).toList();
        assertTrue(unacceptable.isEmpty(), "answers other than 200/201/202/503: " + unacceptable);
        List<Answer> lateUnavailable = answers.stream()
                .filter(a ->
                        a.status() == 503 && (a.at().isBefore(rotatedAt) || a.at().isAfter(rotatedAt.plus(HEALING))))
                .toList();
        assertTrue(lateUnavailable.isEmpty(), "503 outside the " + HEALING + " after the rotation: " + lateUnavailable);
        for (int i = 0; i < INSTANCES; i++) {
            int instance = i;
            List<Answer> own =
                    answers.stream().filter(a -> a.instance() == instance).toList();
            assertTrue(
                    own.subList(own.size() - 10, own.size()).stream().allMatch(Answer::succeeded),
                    "instance " + instance + " has not healed: " + own.subList(own.size() - 10, own.size()));
        }

        // Every session of the role is new and the old password no longer works: the new one is in use.
        assertEquals(INSTANCES, rolesSessions(Instant.MIN), "sessions of the role");
        assertEquals(INSTANCES, rolesSessions(rotatedAt), "sessions of the role opened after the rotation");
        SQLException rejected = assertThrows(
                SQLException.class,
                () -> DriverManager.getConnection(url, role, oldPassword).close());
        assertEquals("28P01", rejected.getSQLState());

        // No paste lost: every one answered 201 is stored, and each instance reads it.
        try (var query = admin.prepareStatement("SELECT count(*) FROM pastes WHERE short_code = ANY (?)")) {
            query.setArray(1, admin.createArrayOf("varchar", created.toArray()));
            try (var rs = query.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(created.size(), rs.getInt(1));
            }
        }
        for (String shortCode : created) {
            for (HttpApi api : instances) {
                assertEquals(202, read(api, shortCode).status(), shortCode);
            }
        }

        // Each instance re-read the secret once, and said so; no password in any log line or answer.
        assertEquals(
                INSTANCES,
                logs.list.stream()
                        .filter(e -> e.getFormattedMessage().contains("holds new credentials"))
                        .count(),
                this::logText);
        for (String password : List.of(oldPassword, newPassword)) {
            assertFalse(logText().contains(password), "a password was logged");
            assertTrue(answers.stream().noneMatch(a -> a.body().contains(password)), "a password was answered");
        }
    }

    /** One instance as Lambda runs it: one request at a time, create then read, until told to stop. */
    private Void serve(int instance, AtomicBoolean running, List<Answer> answers) throws Exception {
        HttpApi api = instances.get(instance);
        JsonMapper json = api.context().getBean(JsonMapper.class);
        while (running.get()) {
            HttpApi.Response create =
                    api.send(api.fixture("create-paste-text").textBody("rotation " + UUID.randomUUID()));
            answers.add(new Answer(instance, Instant.now(), create.status(), create.text()));
            if (create.status() == 201) {
                String shortCode = (String) json.readValue(create.body(), Argument.mapOf(String.class, Object.class))
                        .get("shortCode");
                created.add(shortCode);
                HttpApi.Response read = read(api, shortCode);
                answers.add(new Answer(instance, Instant.now(), read.status(), read.text()));
            }
            Thread.sleep(10);
        }
        return null;
    }

    private static HttpApi.Response read(HttpApi api, String shortCode) {
        return api.send(api.fixture("read-paste").path("/pastes/" + shortCode));
    }

    /** Waits until every instance has answered {@code count} requests successfully since {@code since}. */
    private static void awaitSuccesses(List<Answer> answers, Instant since, int count) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            boolean enough = true;
            for (int i = 0; i < INSTANCES; i++) {
                int instance = i;
                enough &= answers.stream()
                                .filter(a -> a.instance() == instance && a.succeeded() && a.at().isAfter(since))
                                .count()
                        >= count;
            }
            if (enough) {
                return;
            }
            assertTrue(
                    Instant.now().isBefore(deadline),
                    "instances did not answer " + count + " requests successfully: "
                            + answers.subList(Math.max(0, answers.size() - 10), answers.size()));
            Thread.sleep(50);
        }
    }

    private int rolesSessions(Instant startedAfter) throws SQLException {
        try (var query = admin.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = ? AND backend_start > ?")) {
            query.setString(1, role);
            query.setTimestamp(2, startedAfter.equals(Instant.MIN) ? new Timestamp(0) : Timestamp.from(startedAfter));
            try (var rs = query.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = admin.createStatement()) {
            statement.execute(sql);
        }
    }

    private String secretJson(String password) {
        // the shape of an RDS-managed secret
        return """
                {"engine":"postgres","host":"127.0.0.1","port":5432,"username":"%s","password":"%s","dbname":"pastebin"}""".formatted(role, password);
    }

    /** Everything the functions log, at DEBUG for this project and Hikari (more than they log on AWS). */
    private void captureLogs() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        logs.setContext(context);
        logs.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(logs);
        for (String name : CAPTURED_LOGGERS) {
            levels.put(name, context.getLogger(name).getLevel());
            context.getLogger(name).setLevel(Level.DEBUG);
        }
    }

    private void releaseLogs() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(logs);
        levels.forEach((name, level) -> context.getLogger(name).setLevel(level));
        logs.stop();
    }

    private String logText() {
        StringBuilder text = new StringBuilder();
        for (ILoggingEvent event : List.copyOf(logs.list)) {
            text.append(event.getFormattedMessage()).append('\n');
            appendThrowable(text, event.getThrowableProxy(), Collections.newSetFromMap(new IdentityHashMap<>()));
        }
        return text.toString();
    }

    private static void appendThrowable(StringBuilder text, IThrowableProxy throwable, Set<IThrowableProxy> seen) {
        if (throwable == null || !seen.add(throwable)) {
            return;
        }
        text.append(throwable.getClassName())
                .append(": ")
                .append(throwable.getMessage())
                .append('\n');
        appendThrowable(text, throwable.getCause(), seen);
        for (IThrowableProxy suppressed : throwable.getSuppressed()) {
            appendThrowable(text, suppressed, seen);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    record Answer(int instance, Instant at, int status, String body) {
        boolean succeeded() {
            return status == 200 || status == 201 || status == 202;
        }

        @Override
        public String toString() {
            return "#" + instance + " " + at + " " + status + (succeeded() ? "" : " " + body);
        }
    }
}
