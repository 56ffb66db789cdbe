package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The reconciliation's guards against LocalStack's S3 and a database of its own that names none of the bucket's
 * objects: a sweeper pointed at a restored or wrong database must not delete the content it has no row for.
 * LocalStack dates every object now, so the share guard is shown with the age guard at 0, and the age guard with
 * the share guard off. The database is this class's own: it names exactly the rows a test inserts.
 */
@RealServices
@OwnDatabase("sweeper_orphans")
class OrphanGuardIT {

    private static final String BUCKET =
            "sweeper-orphans-" + UUID.randomUUID().toString().substring(0, 8);
    private static final SqsClient SQS = SqsClient.create();
    private static final TestQueues.Pair QUEUES = TestQueues.create(SQS, "sweeper-orphans", 10, 30);
    private static final int OBJECTS = 100;

    private static S3Client s3;

    @BeforeAll
    static void bucket() {
        s3 = S3Client.builder().forcePathStyle(true).build();
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void removeBucket() {
        if (s3 != null) {
            allKeys().forEach(key -> s3.deleteObject(b -> b.bucket(BUCKET).key(key)));
            s3.deleteBucket(b -> b.bucket(BUCKET));
        }
        TestQueues.delete(SQS, QUEUES);
    }

    private final List<String> codes = new ArrayList<>();

    /** A hundred pastes' objects, none of which the (empty) database names. */
    @BeforeEach
    void aHundredObjectsNoRows() throws SQLException {
        execute("DELETE FROM pastes");
        allKeys().forEach(key -> s3.deleteObject(b -> b.bucket(BUCKET).key(key)));
        for (int i = 0; i < OBJECTS; i++) {
            String code = "og" + UUID.randomUUID().toString().replace("-", "").substring(0, 9);
            s3.putObject(
                    b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("the only copy of " + code));
            codes.add(code);
        }
    }

    /** Past the minimum number of orphans, their share of the judged objects decides: 3 % are removed, 5.2 % stop. */
    @Test
    void pastTheMinimumTheShareDecides() throws SQLException {
        Map<String, Object> settings =
                Map.of("pastebin.sweeper.orphan-min-age", "0s", "pastebin.sweeper.orphan-guard-minimum", "2");
        for (String code : codes.subList(3, OBJECTS)) {
            execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status) VALUES ('" + code
                    + "', repeat('a', 64), 7, 'IN_PROGRESS')");
        }

        SweepReport plausible = sweep(settings);

        assertEquals(3, plausible.orphanObjectsRemoved(), "3 of 100: leftovers, removed: " + plausible);
        assertFalse(plausible.orphanGuardStopped(), plausible.toString());
        assertEquals(OBJECTS - 3, keys().size());

        execute("DELETE FROM pastes WHERE short_code IN ('" + String.join("', '", codes.subList(3, 8)) + "')");
        SweepReport implausible = sweep(settings);

        assertTrue(implausible.orphanGuardStopped(), "5 of 97: " + implausible);
        assertEquals(0, implausible.orphanObjectsRemoved(), implausible.toString());
        assertEquals(OBJECTS - 3, keys().size(), "nothing deleted");
    }

    @Test
    void aSweepThatFindsAnImplausibleShareOfOrphansDeletesNone() {
        SweepReport report = sweep(Map.of("pastebin.sweeper.orphan-min-age", "0s"));

        assertEquals(OBJECTS, keys().size(), "no object deleted: " + report);
        assertEquals(0, report.orphanObjectsRemoved(), report.toString());
        assertTrue(report.orphanGuardStopped(), report.toString());
    }

    @Test
    void objectsYoungerThanTheMinimumAgeAreKept() {
        SweepReport report = sweep(Map.of("pastebin.sweeper.orphan-max-share", "1"));

        assertEquals(OBJECTS, keys().size(), "objects just written are kept: " + report);
        assertEquals(0, report.orphanObjectsRemoved(), report.toString());
        assertEquals(OBJECTS, report.objectsChecked(), "listed, and left alone for their age: " + report);
        assertFalse(report.orphanGuardStopped(), report.toString());
    }

    /**
     * A large paste's files (staging/ and files/) are judged by the same guards, by paste: thirty pastes' files that no
     * row names stop the run, and are kept while younger than the minimum age; three pastes' thirty files are three
     * leftovers, below the minimum, and removed.
     */
    @Test
    void aLargePastesFilesAreJudgedByTheSameGuardsCountedByPaste() throws SQLException {
        // the small pastes' objects all named, so that the large files' prefixes decide
        for (String code : codes) {
            execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status) VALUES ('" + code
                    + "', repeat('a', 64), 7, 'IN_PROGRESS')");
        }
        List<String> large = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String code = "lg" + UUID.randomUUID().toString().replace("-", "").substring(0, 9);
            large.add(code);
            for (String key : List.of("staging/" + code + "/1", "files/" + code + "/0")) {
                s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("the only copy of " + key));
            }
        }

        SweepReport young = sweep(Map.of("pastebin.sweeper.orphan-max-share", "1"));
        assertEquals(0, young.orphanObjectsRemoved(), young.toString());
        assertEquals(OBJECTS + 60, keys().size(), "files just written are kept: " + young);

        SweepReport implausible = sweep(Map.of("pastebin.sweeper.orphan-min-age", "0s"));
        assertTrue(implausible.orphanGuardStopped(), "30 of 30 pastes: " + implausible);
        assertEquals(0, implausible.orphanObjectsRemoved(), implausible.toString());
        assertEquals(OBJECTS + 60, keys().size(), "nothing deleted");

        // three leftover pastes of ten files each: 30 objects, but three pastes, below the guard's minimum
        for (String code : large) {
            execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status) VALUES ('" + code
                    + "', repeat('a', 64), 7, 'IN_PROGRESS')");
        }
        List<String> leftovers = large.subList(0, 3);
        for (String code : leftovers) {
            for (int n = 2; n < 12; n++) {
                String key = "files/" + code + "/" + n;
                s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("the only copy of " + key));
            }
        }
        execute("DELETE FROM pastes WHERE short_code IN ('" + String.join("', '", leftovers) + "')");

        SweepReport plausible = sweep(Map.of("pastebin.sweeper.orphan-min-age", "0s"));
        assertFalse(plausible.orphanGuardStopped(), plausible.toString());
        assertEquals(3 * 12, plausible.orphanObjectsRemoved(), "each leftover's two files and ten more: " + plausible);
        assertEquals(OBJECTS + 60 - 6, keys().size());
        assertTrue(keys().stream().noneMatch(key -> leftovers.stream().anyMatch(key::contains)), keys().toString());
    }

    private static SweepReport sweep(Map<String, Object> settings) {
        Map<String, Object> properties = new HashMap<>(Map.of(
                "pastebin.storage.bucket",
                BUCKET,
                "pastebin.upload-queue.url",
                QUEUES.queueUrl(),
                "pastebin.upload-dlq.url",
                QUEUES.deadLetterQueueUrl(),
                // off in the test environment (application-test.yml): this class's bucket is its own
                "pastebin.sweeper.orphan-keys-per-run",
                "10000"));
        properties.putAll(settings);
        try (ApplicationContext context = ApplicationContext.builder()
                .environments("test")
                .properties(properties)
                .start()) {
            return new SweeperHandler(context)
                    .handleRequest(new ScheduledEvent(), TestLambdaContext.withPlentyOfTime());
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(
                        System.getProperty("datasources.default.url"),
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** The bucket's keys but the sweeper's epoch marker (each reconciling sweep writes it). */
    private static List<String> keys() {
        return allKeys().stream()
                .filter(key -> !key.equals(PasteContentStore.SWEEP_EPOCH_KEY))
                .toList();
    }

    private static List<String> allKeys() {
        return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }
}
