package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A real restore of the sweeper's database (review M8): pg_dump of this class's own database, more pastes and
 * sweeps, pg_restore of the dump. The pastes created after the dump keep their objects but lose their rows, and
 * they are too few for the share guard (3 of 43, never more than 20). With the minimum age at 0 (LocalStack dates
 * every object now, so each sweep judges them as if a week had passed), the sweeper must see that its database
 * went back in time (its sweep epoch is behind the bucket's marker), delete nothing and report it, run after run,
 * until an operator acknowledges the restore (docs/operating.md, "Restoring the database"); then it reconciles
 * again.
 */
@RealServices
@OwnDatabase("sweeper_restore")
class DatabaseRestoreIT {

    private static final String BUCKET =
            "sweeper-restore-" + UUID.randomUUID().toString().substring(0, 8);
    private static final SqsClient SQS = SqsClient.create();
    private static final TestQueues.Pair QUEUES = TestQueues.create(SQS, "sweeper-restore", 10, 30);

    private static S3Client s3;

    @BeforeAll
    static void bucket() {
        s3 = S3Client.builder().forcePathStyle(true).build();
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void removeBucket() {
        if (s3 != null) {
            keys("").forEach(key -> s3.deleteObject(b -> b.bucket(BUCKET).key(key)));
            s3.deleteBucket(b -> b.bucket(BUCKET));
        }
        TestQueues.delete(SQS, QUEUES);
    }

    @Test
    void aRestoredDatabaseDeletesNoObjectUntilTheRestoreIsAcknowledged() throws Exception {
        List<String> kept = pastes("rk", 40);
        SweepReport first = sweep();
        assertEquals(0, first.orphanObjectsRemoved(), first.toString());
        assertFalse(first.databaseRestored(), first.toString());
        Path dump = dump();

        List<String> gap = pastes("rg", 3);
        sweep();
        SweepReport beforeRestore = sweep();
        assertEquals(0, beforeRestore.orphanObjectsRemoved(), beforeRestore.toString());
        assertEquals(3, marker(), "each sweep advanced the epoch, in the bucket's marker");
        assertEquals(3, databaseEpoch(), "and in the database");

        restore(dump);
        assertEquals(kept, codes(), "the restore lost the gap's rows");
        assertEquals(1, databaseEpoch(), "the database's epoch went back with it");
        List<String> all = new ArrayList<>(kept);
        all.addAll(gap);
        assertEquals(sorted(all), keys("pastes/"), "every object is still there");

        for (int run = 0; run < 2; run++) {
            SweepReport refused = sweep();
            assertEquals(sorted(all), keys("pastes/"), "the gap's objects, the only copy, are kept: " + refused);
            assertEquals(0, refused.orphanObjectsRemoved(), refused.toString());
            assertFalse(refused.orphanGuardStopped(), "3 of 43: too few for the share guard: " + refused);
            assertTrue(refused.databaseRestored(), "the restore is reported: " + refused);
            assertEquals(3, marker(), "the marker stays ahead");
            assertEquals(1, databaseEpoch(), "and so does the refusal, until acknowledged");
        }

        // the acknowledgement docs/operating.md gives, after deciding what becomes of the gap's objects (here: deleted)
        execute("UPDATE sweeper_epoch SET restore_acknowledged = true");
        SweepReport resumed = sweep();

        assertFalse(resumed.databaseRestored(), resumed.toString());
        assertEquals(3, resumed.orphanObjectsRemoved(), "the reconciliation resumed: " + resumed);
        assertEquals(sorted(kept), keys("pastes/"));
        assertEquals(4, marker(), "past the marker the restore left");
        assertEquals(4, databaseEpoch());

        SweepReport next = sweep();
        assertFalse(next.databaseRestored(), "an acknowledgement is spent on the restore it was for: " + next);
        assertEquals(5, databaseEpoch());
        assertEquals(false, queryOne("SELECT restore_acknowledged FROM sweeper_epoch"));
    }

    /** {@code count} pastes, each a PROCESSED row and its object. */
    private static List<String> pastes(String prefix, int count) throws SQLException {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String code = prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 9);
            execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status, s3_location) VALUES ('" + code
                    + "', repeat('a', 64), 7, 'PROCESSED', 's3://" + BUCKET + "/pastes/" + code + "')");
            s3.putObject(
                    b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("the only copy of " + code));
            codes.add(code);
        }
        return sorted(codes);
    }

    private static SweepReport sweep() {
        try (ApplicationContext context = ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.storage.bucket",
                        BUCKET,
                        "pastebin.upload-queue.url",
                        QUEUES.queueUrl(),
                        "pastebin.upload-dlq.url",
                        QUEUES.deadLetterQueueUrl(),
                        // off in the test environment (application-test.yml): this class's bucket is its own
                        "pastebin.sweeper.orphan-keys-per-run",
                        "10000",
                        // LocalStack dates every object now: judged at once, as if written more than a week ago
                        "pastebin.sweeper.orphan-min-age",
                        "0s"))
                .start()) {
            return new SweeperHandler(context)
                    .handleRequest(new ScheduledEvent(), TestLambdaContext.withPlentyOfTime());
        }
    }

    private static Path dump() throws IOException, InterruptedException {
        Path file = Files.createTempFile("sweeper-restore", ".dump");
        postgresTool("pg_dump", "--format=custom", "--file=" + file);
        return file;
    }

    /** The dump back over the database: every table dropped and recreated as it was (no session is open). */
    private static void restore(Path dump) throws IOException, InterruptedException {
        postgresTool("pg_restore", "--clean", "--if-exists", "--single-transaction", dump.toString());
        Files.delete(dump);
    }

    private static void postgresTool(String tool, String... arguments) throws IOException, InterruptedException {
        URI url = URI.create(System.getProperty("datasources.default.url").substring("jdbc:".length()));
        List<String> command = new ArrayList<>(List.of(
                tool,
                "--host=" + url.getHost(),
                "--port=" + (url.getPort() < 0 ? 5432 : url.getPort()),
                "--username=" + env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                "--dbname=" + url.getPath().substring(1),
                "--no-password"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), command + ": " + output);
    }

    private static long marker() {
        return Long.parseLong(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("sweeper/epoch"))
                .asUtf8String()
                .trim());
    }

    private static long databaseEpoch() throws SQLException {
        return ((Number) queryOne("SELECT epoch FROM sweeper_epoch")).longValue();
    }

    private static List<String> codes() throws SQLException {
        List<String> codes = new ArrayList<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT short_code FROM pastes ORDER BY short_code")) {
            while (rows.next()) {
                codes.add(rows.getString(1));
            }
        }
        return sorted(codes);
    }

    private static Object queryOne(String sql) throws SQLException {
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery(sql)) {
            assertTrue(row.next(), sql);
            return row.getObject(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(
                System.getProperty("datasources.default.url"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static List<String> sorted(List<String> codes) {
        return codes.stream().sorted().toList();
    }

    /** The bucket's keys under {@code prefix} without it, sorted. */
    private static List<String> keys(String prefix) {
        return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .map(key -> key.substring(prefix.length()))
                .sorted()
                .toList();
    }
}
