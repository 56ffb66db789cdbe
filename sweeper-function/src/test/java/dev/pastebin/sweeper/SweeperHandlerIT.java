package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The sweeper against the real PostgreSQL and LocalStack, invoked through its Lambda handler. Ages are set by
 * SQL, never by waiting.
 *
 * <p>The tests only ever insert, inspect and clean up rows whose short code starts with this run's
 * {@link #PREFIX}: the database may be shared, and other rows are not this test's to remove. The sweeper
 * itself works across the whole table, so its counts are only exact in a database of its own
 * (application-test.yml). Its dead-letter queue is a fresh, empty one; DeadLetterReevaluationIT fills one.
 */
@RealServices
@OwnDatabase("sweeper")
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SweeperHandlerIT implements TestPropertyProvider {

    private static final String BUCKET =
            "sweeper-it-" + UUID.randomUUID().toString().substring(0, 8);
    /** Every row a test creates starts with this (short codes have at most 32 characters). */
    private static final String PREFIX = "sw" + UUID.randomUUID().toString().substring(0, 6) + "-";

    private static final SqsClient SQS = SqsClient.create();
    private static final TestQueues.Pair QUEUES = TestQueues.create(SQS, "sweeper-it", 10, 30);

    @Inject
    ApplicationContext applicationContext;

    // The raw pool, not the contextual wrapper Micronaut Data injects: the test's own statements run outside
    // any Micronaut transaction.
    DataSource dataSource;

    @Inject
    S3Client s3;

    @Inject
    StorageProperties storage;

    @Inject
    SweeperProperties properties;

    @Override
    public Map<String, String> getProperties() {
        return Map.of(
                "pastebin.storage.bucket",
                BUCKET,
                "pastebin.upload-queue.url",
                QUEUES.queueUrl(),
                "pastebin.upload-dlq.url",
                QUEUES.deadLetterQueueUrl());
    }

    /** This class's properties and {@code more}, for contexts of its own (another Lambda instance). */
    private static Map<String, Object> propertiesAnd(Map<String, String> more) {
        Map<String, Object> all = new HashMap<>(Map.of(
                "pastebin.upload-queue.url", QUEUES.queueUrl(),
                "pastebin.upload-dlq.url", QUEUES.deadLetterQueueUrl(),
                "pastebin.storage.bucket", BUCKET));
        all.putAll(more);
        return all;
    }

    @BeforeEach
    void noRowsOfOursAndAnEmptyBucket() throws SQLException {
        dataSource = DelegatingDataSource.unwrapDataSource(applicationContext.getBean(DataSource.class));
        deleteOurRows();
        if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(BUCKET))) {
            s3.createBucket(b -> b.bucket(BUCKET));
        }
        emptyBucket(BUCKET);
    }

    @AfterAll
    void deleteOurRowsAndBucket() throws SQLException {
        deleteOurRows();
        emptyBucket(BUCKET);
        s3.deleteBucket(b -> b.bucket(BUCKET));
        TestQueues.delete(SQS, QUEUES);
    }

    @Test
    void deletesOnlyExpiredFailedRowsAndTheirObjectsAndMarksStuckRowsFailed() throws SQLException {
        insert("oldFail1", "FAILED", "2 days", null);
        insert("oldFail2", "FAILED", "25 hours", "s3://" + BUCKET + "/legacy/" + code("oldFail2"));
        insert("newFail1", "FAILED", "23 hours", null);
        insert("oldDone1", "PROCESSED", "30 days", new ContentLocation(BUCKET, key("oldDone1")).uri());
        insert("newProg1", "IN_PROGRESS", "10 minutes", null);
        insert("oldProg1", "IN_PROGRESS", "18 days", null);
        insert("stuckPr1", "IN_PROGRESS", "19 days", null);
        for (String key : List.of(
                key("oldFail1"), key("oldFail2"), "legacy/" + code("oldFail2"), key("newFail1"), key("oldDone1"))) {
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("content"));
        }

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(2, report.deleted());
        assertEquals(3, report.objectsRemoved(), "both keys of oldFail2 and the key of oldFail1");
        assertEquals(1, report.stuckMarkedFailed());
        assertFalse(report.remaining());
        // stuckPr1 was created long before the FAILED retention, but became FAILED only now: it stays
        assertEquals(
                Map.of(
                        "newFail1",
                        "FAILED",
                        "oldDone1",
                        "PROCESSED",
                        "newProg1",
                        "IN_PROGRESS",
                        "oldProg1",
                        "IN_PROGRESS",
                        "stuckPr1",
                        "FAILED"),
                statuses());
        assertEquals(
                "stuck",
                queryString("SELECT failure_reason FROM pastes WHERE short_code = '" + code("stuckPr1") + "'"));
        assertEquals(List.of(key("newFail1"), key("oldDone1")), objectKeys());
    }

    @Test
    void expiredPastesAreDeletedInEveryStateWithTheirObjects() throws SQLException {
        insert("expDone1", "PROCESSED", "2 hours", new ContentLocation(BUCKET, key("expDone1")).uri());
        insert("expProg1", "IN_PROGRESS", "2 hours", null);
        insert("expFail1", "FAILED", "2 hours", null);
        insert("liveDone", "PROCESSED", "2 hours", new ContentLocation(BUCKET, key("liveDone")).uri());
        insert("neverEnd", "PROCESSED", "2 hours", new ContentLocation(BUCKET, key("neverEnd")).uri());
        expiresIn("expDone1", "-1 second");
        expiresIn("expProg1", "-1 hour");
        expiresIn("expFail1", "-1 minute");
        expiresIn("liveDone", "1 hour");
        // an upload that finished just before the paste expired has left its object too
        for (String key : List.of(key("expDone1"), key("expProg1"), key("liveDone"), key("neverEnd"))) {
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("content"));
        }

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(3, report.expiredDeleted());
        assertEquals(0, report.deleted(), "a FAILED row that expired is counted as expired");
        assertEquals(3, report.objectsRemoved());
        assertFalse(report.remaining());
        assertEquals(Map.of("liveDone", "PROCESSED", "neverEnd", "PROCESSED"), statuses());
        assertEquals(List.of(key("liveDone"), key("neverEnd")), objectKeys());
    }

    @Test
    void idempotencyKeysAreDeletedAfter24Hours() throws SQLException {
        insertIdempotencyKey("old", "24 hours 1 second");
        insertIdempotencyKey("young", "23 hours 59 minutes");

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(1, report.idempotencyKeysDeleted());
        assertEquals(1, count("SELECT count(*) FROM idempotency_keys WHERE caller = '" + PREFIX + "'"));
        assertEquals(
                "young", queryString("SELECT idempotency_key FROM idempotency_keys WHERE caller = '" + PREFIX + "'"));
    }

    @Test
    void aFailedRowIsKeptForTheRetentionFromWhenItFailedNotFromWhenItWasCreated() throws SQLException {
        insert("failedNow", "FAILED", "30 days", "23 hours", null);
        insert("failedOld", "FAILED", "30 days", "25 hours", null);

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(1, report.deleted());
        assertEquals(Map.of("failedNow", "FAILED"), statuses());
    }

    @Test
    void anInProgressRowIsMarkedStuckOnlyOnceNoJobForItCanBeDeliveredAndThenKeptTheFailedRetention()
            throws SQLException {
        Duration stuckAfter = properties.stuckAfter();
        insert("notYetStuck", "IN_PROGRESS", ago(stuckAfter.minusMinutes(1)), null);
        insert("stuck", "IN_PROGRESS", ago(stuckAfter.plusMinutes(1)), null);

        SweepReport marking = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(1, marking.stuckMarkedFailed());
        assertEquals(0, marking.deleted(), "a row marked stuck is not deleted in the same run");
        assertEquals(Map.of("notYetStuck", "IN_PROGRESS", "stuck", "FAILED"), statuses());

        // a minute before the FAILED retention has passed since it was marked, then a minute after
        failedAgo("stuck", properties.failedRetention().minusMinutes(1));
        assertEquals(
                0,
                newHandler()
                        .handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime())
                        .deleted());
        failedAgo("stuck", properties.failedRetention().plusMinutes(1));
        assertEquals(
                1,
                newHandler()
                        .handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime())
                        .deleted());
        assertEquals(Map.of("notYetStuck", "IN_PROGRESS"), statuses());
    }

    @Test
    void deletesAbuseReportsAndNoticesPastTheirRetentionOnly() throws SQLException {
        for (String[] report : new String[][] {{"oldRep1", "91 days"}, {"newRep1", "89 days"}}) {
            execute("INSERT INTO abuse_reports (code, reason, reported_at, reporter_hash) VALUES ('" + code(report[0])
                    + "', 'spam', now() - CAST('" + report[1] + "' AS interval), repeat('d', 64))");
            execute("INSERT INTO report_notices (code, notified_at) VALUES ('" + code(report[0]) + "', now() - CAST('"
                    + report[1] + "' AS interval))");
            // the hour's notification budget and a reporter's notices of that hour
            execute("INSERT INTO report_notice_hours (hour, claims, budget) VALUES (date_trunc('hour', now() - CAST('"
                    + report[1] + "' AS interval)), 21, 20)");
            execute("INSERT INTO report_reporter_hours (reporter_hash, hour, notices) VALUES (repeat('d', 64), "
                    + "date_trunc('hour', now() - CAST('" + report[1] + "' AS interval)), 3)");
        }

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(4, report.abuseReportsDeleted(), "the old report, its notice, and the old hour's counters");
        assertEquals(1, count("SELECT count(*) FROM report_notice_hours"), "the recent hour's budget is kept");
        assertEquals(1, count("SELECT count(*) FROM report_reporter_hours"), "the recent hour's reporter is kept");
        assertEquals(
                "newRep1",
                queryString("SELECT substr(code, " + (PREFIX.length() + 1) + ") FROM abuse_reports WHERE code LIKE '"
                        + PREFIX + "%'"));
        assertEquals(1, count("SELECT count(*) FROM report_notices WHERE code LIKE '" + PREFIX + "%'"));
    }

    @Test
    void aSecondRunFindsNothingToDo() throws SQLException {
        insert("newFail1", "FAILED", "1 hour", null);
        insert("newProg1", "IN_PROGRESS", "18 days", null);

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());

        assertEquals(
                new SweepReport(new DeadLetterReport(0, 0, 0, false), 0, 0, 0, 0, 0, 0, 0, false, false, 0, 6, false),
                report);
        assertEquals(2, statuses().size());
    }

    @Test
    void aBacklogIsClearedInBatchesAndALaterRunFinishesWhatTheDeadlineCutShort() throws SQLException {
        insertFailedBacklog(30_000);
        for (int i = 1; i <= 20; i++) {
            String key = key("backlog" + i);
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("content"));
        }

        // the deadline comes near once 10 batches of 500 are gone (after the stuck, overdue large-paste and
        // expired-paste batches)
        SweepReport first = newHandler()
                .handleRequest(scheduledEvent(), TestLambdaContext.runningOutWhen(() -> uncheckedOurRows() <= 25_000));
        assertEquals(5_000, first.deleted());
        assertEquals(13, first.batches());
        assertTrue(first.remaining());
        assertEquals(25_000, ourRows());

        SweepReport second = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
        assertEquals(25_000, second.deleted());
        assertEquals(25_000, second.objectsRemoved());
        // 50 full batches and the short one that proves the end, after the stuck, overdue large-paste and
        // expired-paste batches;
        // then one idempotency-key batch and one abuse-report batch
        assertEquals(56, second.batches());
        assertFalse(second.remaining());
        assertEquals(0, ourRows());
        assertEquals(List.of(), objectKeys());
    }

    /** Expired content must be gone within the hour: a FAILED backlog longer than a run must not delay it. */
    @Test
    void anExpiredPasteIsRemovedBeforeAFailedBacklogThatOutlastsTheRun() throws SQLException {
        insertFailedBacklog(1_000);
        insert("expDone1", "PROCESSED", "1 hour", new ContentLocation(BUCKET, key("expDone1")).uri());
        expiresIn("expDone1", "-1 second");
        s3.putObject(b -> b.bucket(BUCKET).key(key("expDone1")), RequestBody.fromString("content"));

        // the deadline comes near as soon as one delete batch has committed
        SweepReport report = newHandler()
                .handleRequest(scheduledEvent(), TestLambdaContext.runningOutWhen(() -> uncheckedOurRows() <= 1_000));

        assertEquals(1, report.expiredDeleted(), report.toString());
        assertEquals(0, report.deleted(), "the FAILED backlog waits for the next run");
        assertEquals(List.of(), objectKeys());
        assertTrue(report.remaining());
    }

    @Test
    void aDeadlineThatIsAlreadyNearStartsNoBatch() throws SQLException {
        insert("oldFail1", "FAILED", "2 days", null);

        SweepReport report = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.alreadyNearTheDeadline());

        assertEquals(
                new SweepReport(new DeadLetterReport(0, 0, 0, true), 0, 0, 0, 0, 0, 0, 0, false, false, 0, 0, true),
                report);
        assertEquals(1, ourRows());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void twoSweepersAtOnceDeleteEveryRowExactlyOnce() throws Exception {
        insertFailedBacklog(20_000);
        // Two Lambda instances: separate application contexts, pools and S3 clients.
        try (ApplicationContext second = ApplicationContext.builder()
                        .environments("test")
                        .properties(propertiesAnd(Map.of("pastebin.sweeper.batch-size", "200")))
                        .start();
                ApplicationContext third = ApplicationContext.builder()
                        .environments("test")
                        .properties(propertiesAnd(Map.of("pastebin.sweeper.batch-size", "200")))
                        .start()) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                CyclicBarrier start = new CyclicBarrier(2);
                Future<SweepReport> a = pool.submit(() -> {
                    start.await();
                    return new SweeperHandler(second)
                            .handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
                });
                Future<SweepReport> b = pool.submit(() -> {
                    start.await();
                    return new SweeperHandler(third)
                            .handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
                });
                SweepReport ra = a.get();
                SweepReport rb = b.get();

                assertEquals(20_000, ra.deleted() + rb.deleted(), ra + " / " + rb);
                assertEquals(20_000, ra.objectsRemoved() + rb.objectsRemoved(), ra + " / " + rb);
                assertEquals(0, ourRows());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void rowsLockedByAnotherTransactionAreSkippedNotWaitedFor() throws SQLException {
        insertFailedBacklog(1_000);
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement lock = other.createStatement()) {
                lock.execute("SELECT short_code FROM pastes WHERE short_code IN ('" + code("backlog1") + "', '"
                        + code("backlog2") + "') FOR UPDATE");
            }

            SweepReport whileLocked =
                    newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
            assertEquals(998, whileLocked.deleted());
            assertTrue(whileLocked.remaining(), "the locked rows are still due");
            other.rollback();
        }

        SweepReport after = newHandler().handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime());
        assertEquals(2, after.deleted());
        assertFalse(after.remaining());
    }

    @Test
    void whenS3RefusesTheRowsOfThatBatchAreKeptForTheNextRun() throws SQLException {
        insert("oldFail1", "FAILED", "2 days", null);
        try (ApplicationContext missingBucket = ApplicationContext.builder()
                .environments("test")
                .properties(propertiesAnd(Map.of("pastebin.storage.bucket", "no-such-bucket-" + UUID.randomUUID())))
                .start()) {
            SweeperHandler handler = new SweeperHandler(missingBucket);
            assertThrows(
                    RuntimeException.class,
                    () -> handler.handleRequest(scheduledEvent(), TestLambdaContext.withPlentyOfTime()));
        }
        assertEquals(Map.of("oldFail1", "FAILED"), statuses());
    }

    private SweeperHandler newHandler() {
        return new SweeperHandler(applicationContext);
    }

    /** The event an EventBridge schedule delivers (see infra/events/sweeper-scheduled-event.json). */
    private static ScheduledEvent scheduledEvent() {
        return new ScheduledEvent()
                .withId(UUID.randomUUID().toString())
                .withVersion("0")
                .withDetailType("Scheduled Event")
                .withSource("aws.events")
                .withAccount("000000000000")
                .withRegion("us-east-1")
                .withResources(List.of("arn:aws:events:us-east-1:000000000000:rule/pastebin-sweeper"))
                .withDetail(Map.of());
    }

    /** A row created {@code age} ago and last changed then (a FAILED one failed at once). */
    private void insert(String name, String status, String age, String location) throws SQLException {
        insert(name, status, age, age, location);
    }

    private void insert(String name, String status, String createdAgo, String updatedAgo, String location)
            throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO pastes (short_code, content_sha256, size_bytes, s3_location, status, created_at, updated_at)
                     VALUES (?, repeat('a', 64), 7, ?, ?, now() - CAST(? AS interval), now() - CAST(? AS interval))""")) {
            insert.setString(1, code(name));
            insert.setString(2, location);
            insert.setString(3, status);
            insert.setString(4, createdAgo);
            insert.setString(5, updatedAgo);
            insert.executeUpdate();
        }
    }

    /** Sets the row's expiry to now plus {@code interval} (negative: already expired). */
    private void expiresIn(String name, String interval) throws SQLException {
        execute("UPDATE pastes SET expires_at = now() + CAST('" + interval + "' AS interval) WHERE short_code = '"
                + code(name) + "'");
    }

    /** A key of this run's own caller, created {@code age} ago. */
    private void insertIdempotencyKey(String key, String age) throws SQLException {
        execute(
                "INSERT INTO idempotency_keys (caller, idempotency_key, request_sha256, short_code, created_at) VALUES ('"
                        + PREFIX + "', '" + key + "', repeat('c', 64), '" + code(key) + "', now() - CAST('" + age
                        + "' AS interval))");
    }

    private void insertFailedBacklog(int rows) throws SQLException {
        execute("""
                INSERT INTO pastes (short_code, content_sha256, size_bytes, status, failure_reason, created_at, updated_at)
                SELECT '%s' || 'backlog' || g, repeat('a', 64), 7, 'FAILED', 'exhausted',
                       now() - interval '2 days' - g * interval '1 second', now() - interval '2 days' - g * interval '1 second'
                FROM generate_series(1, %d) g""".formatted(PREFIX, rows));
    }

    private void failedAgo(String name, Duration age) throws SQLException {
        execute("UPDATE pastes SET updated_at = now() - CAST('" + ago(age) + "' AS interval) WHERE short_code = '"
                + code(name) + "'");
    }

    /** A PostgreSQL interval literal for {@code age}. */
    private static String ago(Duration age) {
        return age.toSeconds() + " seconds";
    }

    /** The short code a test's row {@code name} really has. */
    private static String code(String name) {
        return PREFIX + name;
    }

    /** The object key of the test's row {@code name}. */
    private String key(String name) {
        return storage.objectKey(code(name));
    }

    private Map<String, String> statuses() throws SQLException {
        return PrefixedRows.statuses(dataSource, PREFIX);
    }

    private long ourRows() throws SQLException {
        return count("SELECT count(*) FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
    }

    private void deleteOurRows() throws SQLException {
        execute("DELETE FROM pastes WHERE short_code LIKE '" + PREFIX + "%'");
        execute("DELETE FROM idempotency_keys WHERE caller = '" + PREFIX + "'");
        execute("DELETE FROM abuse_reports WHERE code LIKE '" + PREFIX + "%'");
        execute("DELETE FROM report_notices WHERE code LIKE '" + PREFIX + "%'");
        // only this class's rows: the class has a database of its own
        execute("DELETE FROM report_notice_hours");
        execute("DELETE FROM report_reporter_hours");
    }

    private String queryString(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }

    private long count(String sql) throws SQLException {
        return Long.parseLong(queryString(sql));
    }

    private long uncheckedOurRows() {
        try {
            return ourRows();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private List<String> objectKeys() {
        return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }

    private void emptyBucket(String bucket) {
        for (String key : objectKeys()) {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        }
    }
}
