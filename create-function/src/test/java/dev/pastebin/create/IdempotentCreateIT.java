package dev.pastebin.create;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.pastebin.api.create.IdempotencyKeys;
import dev.pastebin.api.create.IdempotentReplay;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.PGConnection;
import software.amazon.awssdk.services.sqs.model.Message;

/** Idempotency-Key on POST /pastes against the real database and queue: one paste, one job, however often it is sent. */
@RealServices
class IdempotentCreateIT {

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-idempotent-it");

    private static HttpApi.Request create(String key, String content) {
        return world.api
                .fixture("create-paste-json")
                .header("Idempotency-Key", key)
                .textBody("{\"content\":\"" + content + "\",\"readOnce\":false}");
    }

    /** As the web page sends it: no JWT, so the key is in the anonymous callers' scope. */
    private static HttpApi.Request anonymousCreate(String key, String content) {
        return create(key, content).jwtSubject(null);
    }

    /** The plain pool, outside Micronaut Data's connection management. */
    private static Connection database() throws Exception {
        return DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class))
                .getConnection();
    }

    /**
     * What a create with {@code key} leaves behind when its function dies between the commit and SendMessage
     * (a timeout, a crash; or the send and both compensations failed): the row IN_PROGRESS and the key claimed
     * for it (an anonymous caller's), committed, and no job. Returns the paste's short code.
     */
    private static String createThatDiedBeforeSendingItsJob(ApplicationContext context, String key, String content)
            throws Exception {
        String code = context.getBean(ShortCodes.class).next();
        String sha256 = ContentHash.sha256Hex(content.getBytes(StandardCharsets.UTF_8));
        context.getBean(PasteRepository.class)
                .save(TestPastes.inProgress(
                        code,
                        null,
                        sha256,
                        content.length(),
                        context.getBean(DeleteTokens.class).issue().sha256(),
                        null,
                        false));
        try (Connection db = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class))
                .getConnection()) {
            db.setAutoCommit(false);
            assertTrue(context.getBean(IdempotencyKeys.class)
                    .claim(
                            db,
                            new IdempotencyKey("", key),
                            IdempotentReplay.fingerprint(sha256, PasteOptions.NONE, PasteMetadata.NONE),
                            code)
                    .isEmpty());
            db.commit();
        }
        return code;
    }

    /** How many deletion tokens replays added to the paste's row. */
    private static int replayTokens(String code) throws Exception {
        try (Connection db = database();
                PreparedStatement count = db.prepareStatement(
                        "SELECT coalesce(cardinality(replay_delete_token_sha256s), 0) FROM pastes WHERE short_code = ?")) {
            count.setString(1, code);
            try (var rows = count.executeQuery()) {
                assertTrue(rows.next(), code);
                return rows.getInt(1);
            }
        }
    }

    /** The paste the key was claimed for. */
    private static String pasteOfKey(String key) throws Exception {
        try (Connection db = database();
                PreparedStatement find =
                        db.prepareStatement("SELECT short_code FROM idempotency_keys WHERE idempotency_key = ?")) {
            find.setString(1, key);
            try (var rows = find.executeQuery()) {
                assertTrue(rows.next(), key);
                return rows.getString(1);
            }
        }
    }

    private static String storedTokenHash(String code) {
        return world.api
                .context()
                .getBean(PasteRepository.class)
                .findById(code)
                .orElseThrow()
                .deleteTokenSha256();
    }

    @Test
    void theSameRequestAgainReplaysThePasteWithADeletionTokenOfItsOwn() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpApi.Request withExpiry = world.api
                .fixture("create-paste-json")
                .header("Idempotency-Key", key)
                .textBody("{\"content\":\"once\",\"expiresIn\":600}");
        HttpApi.Response first = world.api.send(withExpiry);
        HttpApi.Response again = world.api.send(withExpiry);

        assertEquals(201, first.status(), first.text());
        assertEquals(201, again.status(), again.text());
        assertNull(first.header("Idempotent-Replayed"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        Map<String, Object> one = world.json(first);
        Map<String, Object> two = world.json(again);
        String code = (String) one.get("shortCode");
        assertEquals(code, two.get("shortCode"));
        assertEquals(one.get("expiresAt"), two.get("expiresAt"), "the paste of the first request, not a new lifetime");
        assertEquals("/pastes/" + code, again.header("Location"));
        assertNotEquals(one.get("deleteToken"), two.get("deleteToken"));
        assertEquals(
                DeleteTokens.hashOf((String) one.get("deleteToken")),
                storedTokenHash(code),
                "the first token stays (DeletePasteIT deletes with either)");
        List<String> jobs = world.drainQueue().stream().map(m -> m.body()).toList();
        assertEquals(2, jobs.size(), "the replay of a paste still IN_PROGRESS sends its job again: " + jobs);
        UploadJobCodec codec = world.api.context().getBean(UploadJobCodec.class);
        for (String job : jobs) {
            assertEquals(code, codec.decode(job).shortCode());
        }

        assertEquals(1, world.api.context().getBean(PasteRepository.class).markProcessed(code, "s3://bucket/" + code));
        assertEquals("PROCESSED", world.json(world.api.send(withExpiry)).get("status"));
        assertTrue(world.drainQueue().isEmpty(), "a stored paste needs no job");
        // the sweeper's tests expect no expiring paste but their own in the shared database
        world.api.context().getBean(PasteRepository.class).remove(code);
    }

    @Test
    void aRetryOfACreateThatDiedBeforeSendingItsJobQueuesTheJob() throws Exception {
        String key = UUID.randomUUID().toString();
        String code = createThatDiedBeforeSendingItsJob(world.api.context(), key, "died before sending");

        HttpApi.Response retry = world.api.send(anonymousCreate(key, "died before sending"));

        assertEquals(201, retry.status(), retry.text());
        assertEquals(code, world.json(retry).get("shortCode"));
        List<String> jobs = world.drainQueue().stream().map(m -> m.body()).toList();
        assertEquals(1, jobs.size(), "a 201 means a job exists: " + jobs);
        UploadJob job = world.api.context().getBean(UploadJobCodec.class).decode(jobs.get(0));
        assertEquals(code, job.shortCode());
        assertArrayEquals("died before sending".getBytes(StandardCharsets.UTF_8), job.content());
        assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status());
    }

    @Test
    void aRetryOfACreateThatDiedBeforeSendingItsJobIs503WhileTheQueueIsDown() throws Exception {
        String key = UUID.randomUUID().toString();
        // nothing listens on port 1: every SQS call is refused at once
        try (HttpApi queueDown = HttpApi.start(Map.of(
                "aws.services.sqs.endpoint-override",
                "http://127.0.0.1:1",
                "pastebin.upload-queue.url",
                "http://127.0.0.1:1/000000000000/no-such-queue"))) {
            String code = createThatDiedBeforeSendingItsJob(queueDown.context(), key, "still no job");

            HttpApi.Response retry = queueDown.send(anonymousCreate(key, "still no job"));

            assertEquals(503, retry.status(), "never 201 without a job: " + retry.text());
            assertEquals("5", retry.header("Retry-After"));
            assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status(), "the next retry can still queue it");
        }
        HttpApi.Response later = world.api.send(anonymousCreate(key, "still no job"));
        assertEquals(201, later.status(), later.text());
        assertEquals(1, world.drainQueue().size(), "the retry after the outage queued the job");
    }

    @Test
    void theSameKeyWithOtherContentOrOptionsIs422() throws Exception {
        String key = UUID.randomUUID().toString();
        assertEquals(201, world.api.send(create(key, "original")).status());

        HttpApi.Response otherContent = world.api.send(create(key, "changed"));
        HttpApi.Response otherOptions = world.api.send(world.api
                .fixture("create-paste-json")
                .header("Idempotency-Key", key)
                .textBody("{\"content\":\"original\",\"readOnce\":true}"));

        for (HttpApi.Response refused : List.of(otherContent, otherOptions)) {
            assertEquals(422, refused.status(), refused.text());
            assertEquals("IDEMPOTENCY_KEY_REUSED", world.json(refused).get("code"));
        }
        assertEquals(1, world.drainQueue().size());
    }

    @Test
    void keysAreScopedToTheCaller() throws Exception {
        String key = UUID.randomUUID().toString();
        String anonymous =
                (String) world.json(world.api.send(create(key, "same"))).get("shortCode");
        String asUser = (String) world.json(world.api.send(create(key, "same").jwtSubject("user-" + key)))
                .get("shortCode");

        assertNotEquals(anonymous, asUser);
        assertEquals(2, world.drainQueue().size());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "has space",
                "slash/no",
                "ü",
                "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"
            })
    void aMalformedKeyIs400(String key) throws Exception {
        HttpApi.Response response = world.api.send(create(key, "x"));

        assertEquals(400, response.status(), response.text());
        assertEquals("INVALID_IDEMPOTENCY_KEY", world.json(response).get("code"));
        assertTrue(world.drainQueue().isEmpty());
    }

    @Test
    void theLongestAndOddestAllowedKeysWork() throws Exception {
        for (String key :
                List.of("a".repeat(127) + UUID.randomUUID().toString().charAt(0), "k:" + UUID.randomUUID() + "._-")) {
            HttpApi.Response response = world.api.send(create(key, "x"));
            assertEquals(201, response.status(), key + ": " + response.text());
        }
    }

    /**
     * Eight first requests with one key, all in flight at once, each with a connection of its own (as eight
     * Lambda instances would be): one paste. They are held together where they contend, at the key's claim,
     * behind an uncommitted claim of the test's own; once all eight wait there, it is rolled back and they race.
     */
    @Test
    void concurrentRequestsWithOneKeyMakeOnePaste() throws Exception {
        String key = UUID.randomUUID().toString();
        int requests = 8;
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        List<Future<HttpApi.Response>> answers = new ArrayList<>();
        // The eight connections are open before the race: opened on demand, one at a time, on a busy machine some
        // took longer than the pool's connection-timeout (5 s) and their requests answered 503 instead of waiting.
        try (HttpApi eightConnections = HttpApi.start(Map.of(
                        "pastebin.upload-queue.url",
                        world.queues.queueUrl(),
                        "datasources.default.maximum-pool-size",
                        requests,
                        "datasources.default.minimum-idle",
                        requests));
                Connection gate = database()) {
            HikariPoolMXBean eightPool = DelegatingDataSource.unwrapDataSource(
                            eightConnections.context().getBean(DataSource.class))
                    .unwrap(HikariDataSource.class)
                    .getHikariPoolMXBean();
            await("the pool's " + requests + " connections open")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> eightPool.getIdleConnections() == requests);
            gate.setAutoCommit(false);
            assertTrue(world.api
                    .context()
                    .getBean(IdempotencyKeys.class)
                    .claim(gate, new IdempotencyKey("", key), "0".repeat(64), "gate")
                    .isEmpty());
            for (int i = 0; i < requests; i++) {
                answers.add(pool.submit(() -> eightConnections.send(anonymousCreate(key, "raced"))));
            }
            await("all " + requests + " requests waiting at the key's claim")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> noneAnswered(answers) && waitingBehind(gate) == requests);
            gate.rollback();

            Set<Object> codes = new HashSet<>();
            int replayed = 0;
            for (Future<HttpApi.Response> answer : answers) {
                HttpApi.Response response = answer.get();
                assertEquals(201, response.status(), response.text());
                codes.add(world.json(response).get("shortCode"));
                replayed += "true".equals(response.header("Idempotent-Replayed")) ? 1 : 0;
            }
            assertEquals(1, codes.size(), "one paste: " + codes);
            assertEquals(requests - 1, replayed);
            // a replay that finds the paste IN_PROGRESS sends the job again: duplicates, never another paste
            List<Message> jobs = world.drainQueue();
            assertFalse(jobs.isEmpty());
            UploadJobCodec codec = world.api.context().getBean(UploadJobCodec.class);
            for (Message job : jobs) {
                assertEquals(codes.iterator().next(), codec.decode(job.body()).shortCode());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** True while no request has answered; a request that answers before the gate opens fails the test with its answer. */
    private static boolean noneAnswered(List<Future<HttpApi.Response>> answers) throws Exception {
        for (Future<HttpApi.Response> answer : answers) {
            if (answer.isDone()) {
                HttpApi.Response early = answer.get();
                throw new AssertionError(
                        "a request answered while the key's claim was held: " + early.status() + " " + early.text());
            }
        }
        return true;
    }

    /** Database sessions blocked by a lock that {@code holder}'s session holds. */
    private static int waitingBehind(Connection holder) throws Exception {
        try (Connection db = database();
                PreparedStatement waiting = db.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
            waiting.setInt(1, holder.unwrap(PGConnection.class).getBackendPID());
            try (var rows = waiting.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    @Test
    void aKeyOlderThan24HoursNoLongerReplays() throws Exception {
        String key = UUID.randomUUID().toString();
        String first = (String) world.json(world.api.send(create(key, "old"))).get("shortCode");
        try (Connection db = database();
                PreparedStatement age = db.prepareStatement(
                        "UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE idempotency_key = ?")) {
            age.setString(1, key);
            assertEquals(1, age.executeUpdate());
        }

        HttpApi.Response later = world.api.send(create(key, "old"));

        assertEquals(201, later.status(), later.text());
        assertNull(later.header("Idempotent-Replayed"));
        assertNotEquals(first, world.json(later).get("shortCode"));
        assertEquals(2, world.drainQueue().size());
    }

    /**
     * A paste that expired is gone even while its row waits for the sweeper: a replay must not answer 201 for
     * it (nor give out a token for it, nor queue its job again), and must not create it afresh either.
     */
    @Test
    void aReplayOfAnExpiredPasteIs404AndCreatesNothing() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpApi.Request expiring = world.api
                .fixture("create-paste-json")
                .header("Idempotency-Key", key)
                .textBody("{\"content\":\"expires\",\"expiresIn\":60}");
        String code = (String) world.json(world.api.send(expiring)).get("shortCode");
        try (Connection db = database();
                PreparedStatement expire = db.prepareStatement(
                        "UPDATE pastes SET expires_at = now() - interval '1 second' WHERE short_code = ?")) {
            expire.setString(1, code);
            assertEquals(1, expire.executeUpdate());
        }
        world.drainQueue();
        try {
            HttpApi.Response replay = world.api.send(expiring);

            assertEquals(404, replay.status(), replay.text());
            assertEquals("PASTE_NOT_FOUND", world.json(replay).get("code"));
            assertTrue(world.drainQueue().isEmpty(), "no job for a paste that is gone");
            assertEquals(0, replayTokens(code), "no token of its own added");
        } finally {
            // the sweeper's tests expect no expiring paste but their own in the shared database
            world.api.context().getBean(PasteRepository.class).remove(code);
        }
    }

    @Test
    void aReplayOfAPasteThatIsGoneIs404AndCreatesNothing() throws Exception {
        String key = UUID.randomUUID().toString();
        String code =
                (String) world.json(world.api.send(create(key, "short-lived"))).get("shortCode");
        try (Connection db = database();
                PreparedStatement delete = db.prepareStatement("DELETE FROM pastes WHERE short_code = ?")) {
            delete.setString(1, code);
            assertEquals(1, delete.executeUpdate());
        }
        world.drainQueue();

        HttpApi.Response replay = world.api.send(create(key, "short-lived"));

        assertEquals(404, replay.status(), replay.text());
        assertEquals("PASTE_NOT_FOUND", world.json(replay).get("code"));
        assertTrue(world.drainQueue().isEmpty(), "a read or deleted paste is never created again");
    }

    /**
     * A client replaying one key forever must not make the database rewrite an ever-growing token list: a key
     * answers at most {@link IdempotentReplay#MAX_REPLAYS} replays, each with a token that deletes the paste;
     * past them a replay is refused (409) and adds nothing.
     */
    @Test
    void aKeyAnswersABoundedNumberOfReplays() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpApi.Response first = world.api.send(create(key, "replayed often"));
        String code = (String) world.json(first).get("shortCode");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < IdempotentReplay.MAX_REPLAYS; i++) {
            HttpApi.Response replay = world.api.send(create(key, "replayed often"));
            assertEquals(201, replay.status(), "replay " + (i + 1) + ": " + replay.text());
            tokens.add((String) world.json(replay).get("deleteToken"));
        }

        HttpApi.Response oneTooMany = world.api.send(create(key, "replayed often"));

        assertEquals(409, oneTooMany.status(), oneTooMany.text());
        assertEquals("IDEMPOTENCY_KEY_EXHAUSTED", world.json(oneTooMany).get("code"));
        assertEquals(IdempotentReplay.MAX_REPLAYS, replayTokens(code), "the refused replay added no token");
        world.drainQueue();
        // every token an answer carried still deletes the paste: the first replay's, the earliest one kept
        try (Connection db = database();
                PreparedStatement matches = db.prepareStatement(
                        "SELECT count(*) FROM pastes WHERE short_code = ? AND ? = ANY(replay_delete_token_sha256s)")) {
            for (String token : tokens) {
                matches.setString(1, code);
                matches.setString(2, DeleteTokens.hashOf(token));
                try (var rows = matches.executeQuery()) {
                    rows.next();
                    assertEquals(1, rows.getInt(1), "token " + token + " deletes the paste");
                }
            }
        }
        world.api.context().getBean(PasteRepository.class).remove(code);
    }

    /**
     * The first request's send hangs (an SQS brownout) and its client retries with the key: the retry replays and
     * its send hangs too. Both sends then fail, in either order: no job exists, so the paste must not wait
     * IN_PROGRESS for one (it would answer 202 until the sweeper's stuck threshold, 18 days on). Whichever send fails
     * last marks the row FAILED and releases the key, so the client's next retry creates the paste afresh; until
     * then the other's job may still be coming, and the row stays IN_PROGRESS.
     */
    @ParameterizedTest(name = "the {0} send fails last")
    @ValueSource(strings = {"first", "replay's"})
    void whenTheFirstSendAndTheReplaysBothFailThePasteIsFailedAndItsKeyReleased(String failsLast) throws Exception {
        String key = UUID.randomUUID().toString();
        String content = "no job at all " + failsLast;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HangingQueue firstQueue = HangingQueue.start();
                HangingQueue replayQueue = HangingQueue.start();
                HttpApi first = brownout(firstQueue);
                HttpApi replaying = brownout(replayQueue)) {
            Future<HttpApi.Response> firstRequest = pool.submit(() -> first.send(create(key, content)));
            firstQueue.awaitFirstCall();
            Future<HttpApi.Response> replay = pool.submit(() -> replaying.send(create(key, content)));
            // the replay adds its deletion token before it sends
            replayQueue.awaitFirstCall();
            String code = pasteOfKey(key);
            assertEquals(1, replayTokens(code));

            HangingQueue failsFirst = failsLast.equals("first") ? replayQueue : firstQueue;
            Future<HttpApi.Response> failedFirst = failsLast.equals("first") ? replay : firstRequest;
            HangingQueue thenFails = failsLast.equals("first") ? firstQueue : replayQueue;
            Future<HttpApi.Response> failedLast = failsLast.equals("first") ? firstRequest : replay;
            failsFirst.fail();
            assertEquals(503, failedFirst.get().status(), "its send failed");
            assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status(), "the other send may still queue the job");
            thenFails.fail();
            assertEquals(503, failedLast.get().status(), "its send failed");

            assertEquals(PasteStatus.FAILED, world.row(code).status(), "no job was queued for it");
            assertTrue(
                    world.row(code).failureReason().startsWith("enqueue failed: "),
                    world.row(code).failureReason());
            HttpApi.Response retry = world.api.send(create(key, content));
            assertEquals(201, retry.status(), retry.text());
            assertNull(retry.header("Idempotent-Replayed"), "the key was released: the retry creates the paste");
            String created = (String) world.json(retry).get("shortCode");
            assertNotEquals(code, created);
            List<Message> jobs = world.drainQueue();
            assertEquals(1, jobs.size(), "the retry's job");
            assertEquals(
                    created,
                    world.api
                            .context()
                            .getBean(UploadJobCodec.class)
                            .decode(jobs.get(0).body())
                            .shortCode());
            world.api.context().getBean(PasteRepository.class).remove(code);
            world.api.context().getBean(PasteRepository.class).remove(created);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * As above on a private instance, the replay's send failing last: the key a keyed create claims is in its API
     * key's scope, and the replay that marks the paste FAILED must release that one, or the client's next retry is
     * answered with the FAILED paste instead of creating it.
     */
    @Test
    void aKeyedCreateWhoseSendsAllFailReleasesTheKeyInItsApiKeysScope() throws Exception {
        TestApiKeys.Key apiKey = TestApiKeys.issue(
                DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class)), null, null);
        String key = UUID.randomUUID().toString();
        String content = "no job for a keyed create";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HangingQueue firstQueue = HangingQueue.start();
                HangingQueue replayQueue = HangingQueue.start();
                HttpApi first = brownout(firstQueue, Map.of("pastebin.create.access", "api-key"));
                HttpApi replaying = brownout(replayQueue, Map.of("pastebin.create.access", "api-key"))) {
            Future<HttpApi.Response> firstRequest =
                    pool.submit(() -> first.send(keyedCreate(first, key, content, apiKey)));
            firstQueue.awaitFirstCall();
            Future<HttpApi.Response> replay =
                    pool.submit(() -> replaying.send(keyedCreate(replaying, key, content, apiKey)));
            replayQueue.awaitFirstCall();
            String code = pasteOfKey(key);

            firstQueue.fail();
            assertEquals(503, firstRequest.get().status(), "its send failed");
            replayQueue.fail();
            assertEquals(503, replay.get().status(), "its send failed");
            assertEquals(PasteStatus.FAILED, world.row(code).status(), "no job was queued for it");

            try (HttpApi keyed = HttpApi.start(Map.of(
                    "pastebin.create.access",
                    "api-key",
                    "pastebin.upload-queue.url",
                    world.api
                            .context()
                            .getProperty("pastebin.upload-queue.url", String.class)
                            .orElseThrow()))) {
                HttpApi.Response retry = keyed.send(keyedCreate(keyed, key, content, apiKey));
                assertEquals(201, retry.status(), retry.text());
                assertNull(retry.header("Idempotent-Replayed"), "the key was released: the retry creates the paste");
                String created = (String) world.json(retry).get("shortCode");
                assertNotEquals(code, created);
                world.drainQueue();
                world.api.context().getBean(PasteRepository.class).remove(created);
            }
            world.api.context().getBean(PasteRepository.class).remove(code);
        } finally {
            pool.shutdownNow();
        }
    }

    /** An anonymous caller's create with an API key, as a client of a private instance sends it. */
    private static HttpApi.Request keyedCreate(HttpApi api, String key, String content, TestApiKeys.Key apiKey) {
        return api.fixture("create-paste-json")
                .jwtSubject(null)
                .header("Idempotency-Key", key)
                .header("authorization", apiKey.bearer())
                .textBody("{\"content\":\"" + content + "\",\"readOnce\":false}");
    }

    private static HttpApi brownout(HangingQueue queue) {
        return brownout(queue, Map.of());
    }

    /** The function with its queue in a brownout: every send hangs until the test fails it. */
    private static HttpApi brownout(HangingQueue queue, Map<String, Object> more) {
        Map<String, Object> properties = new HashMap<>(more);
        properties.putAll(Map.of(
                "aws.services.sqs.endpoint-override",
                queue.endpoint(),
                "pastebin.upload-queue.url",
                queue.endpoint() + "/000000000000/uploads",
                // the test, not the SDK's timer, decides when a send fails
                "pastebin.sqs.call-timeout",
                "5m"));
        return HttpApi.start(properties);
    }

    /**
     * The first request's send hangs (an SQS brownout) and its client retries with the key: the retry replays,
     * sends the job and answers 201. When the first request's send then fails, its compensation must not fail
     * the paste the 201 promised: the row stays IN_PROGRESS and the retry's job stores it.
     */
    @Test
    void aFailedSendAfterAReplayAnswered201LeavesThePasteToBeStored() throws Exception {
        String key = UUID.randomUUID().toString();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (HangingQueue hanging = HangingQueue.start();
                HttpApi brownout = HttpApi.start(Map.of(
                        "aws.services.sqs.endpoint-override",
                        hanging.endpoint(),
                        "pastebin.upload-queue.url",
                        hanging.endpoint() + "/000000000000/uploads",
                        // the test, not the SDK's timer, decides when the first send fails
                        "pastebin.sqs.call-timeout",
                        "5m"))) {
            Future<HttpApi.Response> firstRequest = pool.submit(() -> brownout.send(create(key, "brownout")));
            hanging.awaitFirstCall();

            HttpApi.Response retry = world.api.send(create(key, "brownout"));
            assertEquals(201, retry.status(), retry.text());
            assertEquals("true", retry.header("Idempotent-Replayed"));
            String code = (String) world.json(retry).get("shortCode");

            hanging.fail();
            assertEquals(503, firstRequest.get().status(), "the first request's send failed");

            assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status(), "a 201 was answered for it");
            List<Message> jobs = world.drainQueue();
            assertEquals(1, jobs.size(), "the retry's job");
            assertEquals(
                    code,
                    world.api
                            .context()
                            .getBean(UploadJobCodec.class)
                            .decode(jobs.get(0).body())
                            .shortCode());
            world.api.context().getBean(PasteRepository.class).remove(code);
        } finally {
            pool.shutdownNow();
        }
    }
}
