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
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The sweeper and large pastes (docs/design.md, "Large files: straight to S3"): one whose files did not all arrive
 * within the upload window (plus the grace) is FAILED with the reason and its objects deleted; one still within it is
 * left alone; an expired one goes with every file, staged or verified.
 */
@RealServices
@OwnDatabase("sweeper")
class SweepLargePastesIT {

    private static final String BUCKET =
            "sweeper-large-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String PREFIX = "sl" + UUID.randomUUID().toString().substring(0, 6) + "-";
    private static final SqsClient SQS = SqsClient.create();
    private static final TestQueues.Pair QUEUES = TestQueues.create(SQS, "sweeper-large", 10, 30);

    private static ApplicationContext context;
    private static DataSource dataSource;
    private static S3Client s3;

    @BeforeAll
    static void start() {
        context = ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.storage.bucket",
                        BUCKET,
                        "pastebin.upload-queue.url",
                        QUEUES.queueUrl(),
                        "pastebin.upload-dlq.url",
                        QUEUES.deadLetterQueueUrl(),
                        "pastebin.large-files.upload-window",
                        "1m"))
                .start();
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        s3 = context.getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void stop() throws Exception {
        if (context != null) {
            execute("DELETE FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
            s3.listObjectsV2Paginator(b -> b.bucket(BUCKET))
                    .contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(BUCKET).key(o.key())));
            s3.deleteBucket(b -> b.bucket(BUCKET));
            context.close();
        }
        TestQueues.delete(SQS, QUEUES);
    }

    @Test
    void aLargePasteWhoseFilesDidNotArriveInTheWindowIsFailedAndItsObjectsDeleted() throws Exception {
        String overdue = PREFIX + "overdue";
        String recent = PREFIX + "recent";
        // created two hours ago: past the 1-minute window and the hour's grace
        insertLarge(overdue, "IN_PROGRESS", "now() - interval '2 hours'", null);
        insertLarge(recent, "IN_PROGRESS", "now()", null);

        sweep();

        assertEquals("FAILED", status(overdue));
        assertEquals("files did not arrive within the upload window", reason(overdue));
        assertFalse(exists("staging/" + overdue + "/1"), "the staged file is deleted");
        assertFalse(exists("files/" + overdue + "/0"), "the verified one too: nothing will read it");
        assertEquals("IN_PROGRESS", status(recent), "within its window: left alone");
        assertTrue(exists("staging/" + recent + "/1"));
    }

    @Test
    void anExpiredLargePasteGoesWithEveryFile() throws Exception {
        String expired = PREFIX + "expired";
        insertLarge(expired, "IN_PROGRESS", "now()", "now() - interval '1 minute'");

        sweep();

        assertEquals(null, status(expired), "the row is deleted");
        assertFalse(exists("staging/" + expired + "/1"));
        assertFalse(exists("files/" + expired + "/0"));
    }

    /**
     * A read-once large paste its reveal burnt (docs/design.md, "Reading once"): expired at the reveal, its row and
     * files stay while the links the reveal answered may still be used (read-link-validity, 5 minutes), and go
     * together once they have expired: nothing is left under staging/ or files/.
     */
    @Test
    void aBurntReadOnceLargePasteGoesWithEveryFileOnceItsLinksHaveExpired() throws Exception {
        String burnt = PREFIX + "burnt";
        insertLarge(burnt, "IN_PROGRESS", "now()", null);
        execute("UPDATE pastes SET status = 'PROCESSED', s3_location = 's3://" + BUCKET + "/files/" + burnt
                + "/', read_once = true, expires_at = now() WHERE short_code = '" + burnt + "'");

        sweep();

        assertEquals("PROCESSED", status(burnt), "its links may still be in use: kept");
        assertTrue(exists("files/" + burnt + "/0"));

        // as if the reveal had been six minutes ago: past the links' five
        execute("UPDATE pastes SET expires_at = now() - interval '6 minutes' WHERE short_code = '" + burnt + "'");
        sweep();

        assertEquals(null, status(burnt), "the row is deleted");
        for (String prefix : List.of("staging/", "files/")) {
            assertEquals(
                    0,
                    s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix + burnt + "/"))
                            .keyCount(),
                    "nothing left under " + prefix + burnt + "/");
        }
    }

    /** A large paste of two files: the first verified (at its final key), the second staged. */
    private static void insertLarge(String code, String status, String createdAt, String expiresAt) throws Exception {
        execute("INSERT INTO pastes (short_code, content_sha256, size_bytes, status, created_at, expires_at) VALUES ('"
                + code + "', repeat('a', 64), 20, '" + status + "', " + createdAt + ", "
                + (expiresAt == null ? "NULL" : expiresAt) + ")");
        execute("INSERT INTO paste_files (file_id, short_code, position, name, size_bytes, sha256, content_type, state,"
                + " verified_at) VALUES ('" + code + "/0', '" + code + "', 0, 'a', 10, repeat('b', 64), 'text/plain',"
                + " 'VERIFIED', now()), ('" + code + "/1', '" + code + "', 1, 'b', 10, repeat('c', 64), 'text/plain',"
                + " 'STAGED', NULL)");
        s3.putObject(b -> b.bucket(BUCKET).key("files/" + code + "/0"), RequestBody.fromString("0123456789"));
        s3.putObject(b -> b.bucket(BUCKET).key("staging/" + code + "/1"), RequestBody.fromString("0123456789"));
    }

    private static void sweep() {
        new SweeperHandler(context)
                .handleRequest(
                        new ScheduledEvent()
                                .withSource("aws.events")
                                .withDetailType("Scheduled Event")
                                .withId(UUID.randomUUID().toString()),
                        TestLambdaContext.withPlentyOfTime());
    }

    private static boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket(BUCKET).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    private static String status(String code) throws SQLException {
        return column("status", code);
    }

    private static String reason(String code) throws SQLException {
        return column("failure_reason", code);
    }

    private static String column(String column, String code) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var s = c.prepareStatement("SELECT " + column + " FROM pastes WHERE short_code = ?")) {
            s.setString(1, code);
            try (var rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
