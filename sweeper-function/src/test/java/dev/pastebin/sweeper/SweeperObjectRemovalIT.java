package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.faults.FaultProxy;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The sweeper's object removal against LocalStack's S3 through a fault proxy: a key S3 refuses to delete keeps
 * its row (the batch is rolled back, the run fails loudly, the next run finishes it), a recorded location in a
 * bucket that no longer exists does not block its row, and a batch whose rows name more than 1,000 keys is
 * removed in DeleteObjects calls of at most 1,000.
 */
@RealServices
@OwnDatabase("sweeper")
class SweeperObjectRemovalIT {

    private static final URI LOCALSTACK =
            URI.create(Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("http://127.0.0.1:4566"));
    private static final String BUCKET =
            "sweeper-removal-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String PREFIX = "sr" + UUID.randomUUID().toString().substring(0, 6) + "-";
    private static final SqsClient SQS = SqsClient.create();
    private static final TestQueues.Pair QUEUES = TestQueues.create(SQS, "sweeper-removal", 10, 30);

    private static FaultProxy proxy;
    private static ApplicationContext context;
    private static DataSource dataSource;
    private static S3Client s3;

    @BeforeAll
    static void start() throws Exception {
        proxy = new FaultProxy(LOCALSTACK);
        context = ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.storage.bucket",
                        BUCKET,
                        "pastebin.upload-queue.url",
                        QUEUES.queueUrl(),
                        "pastebin.upload-dlq.url",
                        QUEUES.deadLetterQueueUrl(),
                        "pastebin.sweeper.batch-size",
                        "600",
                        // off in the test environment (application-test.yml): this class's bucket is its own
                        "pastebin.sweeper.orphan-keys-per-run",
                        "10000",
                        // LocalStack dates every object now: judged at once, as if written long ago
                        "pastebin.sweeper.orphan-min-age",
                        "0s",
                        "aws.services.s3.endpoint-override",
                        proxy.endpoint().toString()))
                .start();
        dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        s3 = context.getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void stop() throws Exception {
        if (context != null) {
            execute("DELETE FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
            allKeys().forEach(key -> s3.deleteObject(b -> b.bucket(BUCKET).key(key)));
            s3.deleteBucket(b -> b.bucket(BUCKET));
            context.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        TestQueues.delete(SQS, QUEUES);
    }

    @BeforeEach
    void noRowsNoObjects() throws SQLException {
        proxy.recover();
        execute("DELETE FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
        allKeys().forEach(key -> s3.deleteObject(b -> b.bucket(BUCKET).key(key)));
    }

    @Test
    void aKeyS3RefusesToDeleteKeepsItsRowAndTheNextRunFinishesIt() throws Exception {
        String code = PREFIX + "refused";
        insertExpiredFailed(code, null);
        s3.putObject(b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("orphan"));
        proxy.refuseDeletes();

        assertThrows(RuntimeException.class, this::sweep, "a refused key fails the run (the sweeper's error alarm)");

        assertEquals(1, rows(), "the batch was rolled back: the row stays until its object is gone");
        assertEquals(List.of("pastes/" + code), keys());

        proxy.recover();
        SweepReport report = sweep();
        assertEquals(1, report.deleted(), report.toString());
        assertEquals(0, rows());
        assertEquals(List.of(), keys());
    }

    @Test
    void aRowWhoseRecordedBucketNoLongerExistsIsDeletedWithItsConfiguredKey() throws Exception {
        String code = PREFIX + "retired";
        insertExpiredFailed(code, "s3://retired-bucket-" + UUID.randomUUID() + "/pastes/" + code);
        s3.putObject(b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("orphan"));

        SweepReport report = sweep();

        assertEquals(1, report.deleted(), report.toString());
        assertEquals(2, report.objectsRemoved(), "the configured key, and the retired bucket's key gone with it");
        assertEquals(0, rows());
        assertEquals(List.of(), keys());
    }

    @Test
    void moreThanAThousandKeysAreRemovedInCallsOfAtMostAThousand() throws Exception {
        // 600 rows, each with its configured key and a legacy recorded location: 1,200 keys in one batch
        for (int i = 0; i < 600; i++) {
            String code = PREFIX + i;
            insertExpiredFailed(code, "s3://" + BUCKET + "/legacy/" + code);
        }
        int callsBefore = proxy.deleteObjectsCalls().size();

        SweepReport report = sweep();

        assertEquals(600, report.deleted(), report.toString());
        assertEquals(1_200, report.objectsRemoved(), report.toString());
        List<Integer> calls = proxy.deleteObjectsCalls()
                .subList(callsBefore, proxy.deleteObjectsCalls().size());
        assertEquals(1_200, calls.stream().mapToInt(Integer::intValue).sum(), calls.toString());
        assertTrue(calls.stream().allMatch(n -> n <= 1_000), calls.toString());
        assertEquals(2, calls.size(), calls.toString());
        assertEquals(0, rows());
    }

    /**
     * Objects under the paste prefix that no row names (a remove whose object came back, a worker's PUT that
     * landed after the removal and whose delete never succeeded) are removed; an object whose row exists, in
     * any state, is kept, and nothing outside the prefix is touched.
     */
    @Test
    void objectsNoRowNamesAreRemovedAndTheOthersKept() throws Exception {
        String pending = PREFIX + "pending";
        String processed = PREFIX + "processed";
        insertInProgress(pending);
        insertInProgress(processed);
        execute("UPDATE pastes SET status = 'PROCESSED', s3_location = 's3://" + BUCKET + "/pastes/" + processed
                + "' WHERE short_code = '" + processed + "'");
        for (String code : List.of(pending, processed, PREFIX + "deleted", PREFIX + "burnt", PREFIX + "swept")) {
            s3.putObject(b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("content of " + code));
        }
        s3.putObject(b -> b.bucket(BUCKET).key("elsewhere/" + PREFIX + "x"), RequestBody.fromString("not a paste"));

        SweepReport report = sweep();

        assertEquals(List.of("elsewhere/" + PREFIX + "x", "pastes/" + pending, "pastes/" + processed), keys());
        assertEquals(3, report.orphanObjectsRemoved(), report.toString());
        assertEquals(5, report.objectsChecked(), report.toString());
    }

    /**
     * A large paste's staged and verified files (docs/design.md, "Large files: straight to S3") whose paste no row
     * names (removed while a client's upload to a URL signed before was still arriving, and the worker could not
     * delete it) are removed; a live large paste's are kept, uploading or stored.
     */
    @Test
    void aLargePastesFilesNoRowNamesAreRemovedAndALivePastesKept() throws Exception {
        String uploading = PREFIX + "uploading";
        String stored = PREFIX + "stored";
        String gone = PREFIX + "gone";
        insertInProgress(uploading);
        insertInProgress(stored);
        execute("UPDATE pastes SET status = 'PROCESSED', s3_location = 's3://" + BUCKET + "/files/" + stored
                + "/' WHERE short_code = '" + stored + "'");
        List<String> live = List.of(
                "files/" + stored + "/0",
                "files/" + stored + "/1",
                "files/" + uploading + "/0",
                "staging/" + uploading + "/1");
        List<String> orphaned = List.of("files/" + gone + "/1", "files/" + gone + "/2", "staging/" + gone + "/0");
        for (String key :
                java.util.stream.Stream.concat(live.stream(), orphaned.stream()).toList()) {
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("a file at " + key));
        }

        SweepReport report = sweep();

        assertEquals(live, keys(), report.toString());
        assertEquals(3, report.orphanObjectsRemoved(), report.toString());
        assertEquals(7, report.objectsChecked(), report.toString());
    }

    /** At most {@code orphan-keys-per-run} keys a run; starting anywhere and wrapping, runs cover them all. */
    @Test
    void eachRunChecksAtMostItsBudgetOfKeysAndLaterRunsFinish() throws Exception {
        for (int i = 0; i < 5; i++) {
            String code = PREFIX + "orphan" + i;
            s3.putObject(b -> b.bucket(BUCKET).key("pastes/" + code), RequestBody.fromString("left behind"));
        }
        try (ApplicationContext twoKeysARun = ApplicationContext.builder()
                .environments("test")
                .properties(Map.of(
                        "pastebin.storage.bucket",
                        BUCKET,
                        "pastebin.upload-queue.url",
                        QUEUES.queueUrl(),
                        "pastebin.upload-dlq.url",
                        QUEUES.deadLetterQueueUrl(),
                        "pastebin.sweeper.orphan-keys-per-run",
                        "2",
                        "pastebin.sweeper.orphan-min-age",
                        "0s"))
                .start()) {
            for (int left : List.of(3, 1, 0)) {
                int before = keys().size();
                SweepReport report = new SweeperHandler(twoKeysARun)
                        .handleRequest(new ScheduledEvent(), TestLambdaContext.withPlentyOfTime());
                assertEquals(Math.min(2, before), report.objectsChecked(), report.toString());
                assertEquals(before - left, report.orphanObjectsRemoved(), report.toString());
                assertEquals(left, keys().size(), report.toString());
            }
        }
    }

    private static void insertInProgress(String code) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var insert = c.prepareStatement("""
                INSERT INTO pastes (short_code, content_sha256, size_bytes, status) VALUES (?, repeat('a', 64), 7, 'IN_PROGRESS')""")) {
            insert.setString(1, code);
            insert.executeUpdate();
        }
    }

    private SweepReport sweep() {
        return new SweeperHandler(context)
                .handleRequest(
                        new ScheduledEvent()
                                .withSource("aws.events")
                                .withDetailType("Scheduled Event")
                                .withId(UUID.randomUUID().toString()),
                        TestLambdaContext.withPlentyOfTime());
    }

    private static void insertExpiredFailed(String code, String location) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var insert = c.prepareStatement("""
                INSERT INTO pastes (short_code, content_sha256, size_bytes, s3_location, status, failure_reason, created_at, updated_at)
                VALUES (?, repeat('a', 64), 7, ?, 'FAILED', 'permanent: test', now() - interval '3 days', now() - interval '2 days')""")) {
            insert.setString(1, code);
            insert.setString(2, location);
            insert.executeUpdate();
        }
    }

    private static long rows() throws SQLException {
        try (Connection c = dataSource.getConnection();
                var s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM pastes WHERE short_code LIKE '" + PREFIX + "%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                var s = c.createStatement()) {
            s.execute(sql);
        }
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
