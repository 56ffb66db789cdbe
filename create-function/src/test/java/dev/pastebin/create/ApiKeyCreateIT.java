package dev.pastebin.create;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestApiKeys;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * A private instance (CreateAccess=api-key; docs/operating.md, "API keys") through the real handler against the real
 * PostgreSQL and LocalStack: every create route and form answers 401 with a Bearer challenge without a valid key and
 * stores nothing; a valid key creates and the row records it; a revoked key is refused at its next create; the
 * daily limits are exact under concurrency and answered 429 with Retry-After; a replay consumes nothing.
 */
@RealServices
class ApiKeyCreateIT {

    private static final String BOUNDARY = "------------------------d74496d66958873e";
    private static final String CHALLENGE = "Bearer realm=\"pastebin\"";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("api-key-it", Map.of("pastebin.create.access", "api-key"));

    private static DataSource database() {
        return DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
    }

    private static HttpApi.Request text(String content) {
        return world.api
                .fixture("create-paste-text")
                .header("content-type", "text/plain; charset=utf-8")
                .textBody(content);
    }

    /** Each create route and form of body, as clients send them. */
    private static Map<String, HttpApi.Request> everyRouteAndForm(String content) {
        byte[] multipart = ("--" + BOUNDARY
                        + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\n" + content + "\r\n--" + BOUNDARY + "--\r\n")
                .getBytes(StandardCharsets.UTF_8);
        Map<String, HttpApi.Request> requests = new HashMap<>();
        requests.put("text", text(content));
        requests.put(
                "json",
                world.api.fixture("create-paste-json").jwtSubject(null).textBody("{\"content\":\"" + content + "\"}"));
        requests.put(
                "urlencoded form at /",
                world.api
                        .fixture("create-paste-text")
                        .path("/")
                        .header("content-type", "application/x-www-form-urlencoded")
                        .textBody("content=" + content));
        requests.put(
                "multipart form",
                world.api
                        .fixture("create-paste-text")
                        .header("content-type", "multipart/form-data; boundary=" + BOUNDARY)
                        .binaryBody(multipart));
        requests.put(
                "haste",
                world.api.fixture("create-paste-text").path("/documents").textBody(content));
        return requests;
    }

    @Test
    void withoutAKeyEveryCreateRouteIs401WithABearerChallengeAndStoresNothing() throws Exception {
        everyRouteAndForm("no key " + UUID.randomUUID()).forEach((name, request) -> {
            HttpApi.Response response = world.api.send(request.withoutHeader("authorization"));
            assertEquals(401, response.status(), name + ": " + response.text());
            assertEquals(CHALLENGE, response.header("WWW-Authenticate"), name);
            assertTrue(response.text().contains("API key"), name + ": " + response.text());
        });
        HttpApi.Response json = world.api.send(text("no key"));
        assertEquals("API_KEY_REQUIRED", world.json(json).get("code"));
        assertEquals("no-store", json.header("Cache-Control"));
        assertEquals(List.of(), world.drainQueue(), "nothing was queued");
    }

    @Test
    void aValidKeyCreatesOnEveryRouteAndThePasteRecordsTheKey() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), null, null);

        for (var entry : everyRouteAndForm("with key " + UUID.randomUUID()).entrySet()) {
            HttpApi.Response response = world.api.send(entry.getValue().header("authorization", key.bearer()));
            assertTrue(response.status() == 200 || response.status() == 201, entry.getKey() + ": " + response.text());
        }
        HttpApi.Response created = world.api.send(text("owned").header("authorization", key.bearer()));
        assertEquals(201, created.status(), created.text());
        String code = (String) world.json(created).get("shortCode");

        assertEquals(key.id(), TestApiKeys.ownerOf(database(), code));
        assertEquals(6, TestApiKeys.pastesOwnedBy(database(), key.id()));
        assertEquals(6, TestApiKeys.pastesToday(database(), key.id()));
        assertEquals(6, world.drainQueue().size(), "every paste's job was queued");
    }

    /** {@code curl -T}'s PUT is a create like any other: 401 without a key, no paste; with one, the key owns it. */
    @Test
    void aCurlUploadIs401WithoutAKeyAndOwnedByTheKeyWithOne() throws Exception {
        HttpApi.Request upload = world.api
                .fixture("create-paste-text")
                .withoutHeader("content-type")
                .path("/big.iso")
                .method("PUT")
                .noBody()
                .header("content-length", "1000000");

        HttpApi.Response refused = world.api.send(upload.withoutHeader("authorization"));
        assertEquals(401, refused.status(), refused.text());
        assertEquals("API_KEY_REQUIRED", world.json(refused).get("code"));
        assertEquals(CHALLENGE, refused.header("WWW-Authenticate"));
        assertNull(refused.header("Location"), "nothing to upload to");

        TestApiKeys.Key key = TestApiKeys.issue(database(), null, null);
        HttpApi.Response redirected = world.api.send(upload.header("authorization", key.bearer()));
        assertEquals(307, redirected.status(), redirected.text());
        assertEquals(key.id(), TestApiKeys.ownerOf(database(), redirected.header("Paste-Short-Code")));
    }

    @Test
    void anUnknownRevokedOrMalformedCredentialIs401AndARevocationHoldsFromTheNextCreate() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), null, null);
        assertEquals(
                201,
                world.api
                        .send(text("before").header("authorization", key.bearer()))
                        .status());

        TestApiKeys.revoke(database(), key.id());

        HttpApi.Response revoked = world.api.send(text("after").header("authorization", key.bearer()));
        assertEquals(401, revoked.status(), revoked.text());
        assertEquals("API_KEY_INVALID", world.json(revoked).get("code"));
        assertEquals(CHALLENGE + ", error=\"invalid_token\"", revoked.header("WWW-Authenticate"));
        HttpApi.Response unknown =
                world.api.send(text("unknown").header("authorization", "Bearer pb_" + "A".repeat(43)));
        assertEquals(401, unknown.status());
        assertEquals(CHALLENGE + ", error=\"invalid_token\"", unknown.header("WWW-Authenticate"));
        HttpApi.Response basic = world.api.send(text("basic").header("authorization", "Basic dXNlcjpwYXNz"));
        assertEquals(401, basic.status());
        assertEquals("API_KEY_INVALID", world.json(basic).get("code"));
        assertEquals(CHALLENGE + ", error=\"invalid_request\"", basic.header("WWW-Authenticate"));
        assertEquals(1, TestApiKeys.pastesOwnedBy(database(), key.id()), "only the create before the revocation");
        assertEquals(1, world.drainQueue().size());
    }

    /**
     * Forty creates on one key with a limit of ten, all in flight at once, each with a connection of its own: exactly
     * ten are created, the thirty others answered 429 with Retry-After, and the day's count is ten.
     */
    @Test
    void theDailyPasteLimitIsExactUnderConcurrency() throws Exception {
        int requests = 40;
        int limit = 10;
        TestApiKeys.Key key = TestApiKeys.issue(database(), limit, null);
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        // ten connections, open before the race, and long enough a wait for one (the creates queue for them)
        try (HttpApi tenConnections = HttpApi.start(Map.of(
                "pastebin.upload-queue.url",
                world.queues.queueUrl(),
                "pastebin.create.access",
                "api-key",
                "datasources.default.maximum-pool-size",
                limit,
                "datasources.default.minimum-idle",
                limit,
                "datasources.default.connection-timeout",
                60_000))) {
            HikariPoolMXBean connections = DelegatingDataSource.unwrapDataSource(
                            tenConnections.context().getBean(DataSource.class))
                    .unwrap(HikariDataSource.class)
                    .getHikariPoolMXBean();
            await("the pool's connections open")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> connections.getIdleConnections() == limit);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpApi.Response>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                HttpApi.Request request = text("raced " + i).header("authorization", key.bearer());
                answers.add(pool.submit(() -> {
                    start.await();
                    return tenConnections.send(request);
                }));
            }
            start.countDown();

            int created = 0;
            int refused = 0;
            for (Future<HttpApi.Response> answer : answers) {
                HttpApi.Response response = answer.get();
                if (response.status() == 201) {
                    created++;
                } else {
                    assertEquals(429, response.status(), response.text());
                    assertEquals("API_KEY_QUOTA_EXCEEDED", world.json(response).get("code"));
                    long retryAfter = Long.parseLong(response.header("Retry-After"));
                    assertTrue(retryAfter >= 1 && retryAfter <= 86_400, "until the next UTC midnight: " + retryAfter);
                    refused++;
                }
            }
            assertEquals(limit, created);
            assertEquals(requests - limit, refused);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(limit, TestApiKeys.pastesToday(database(), key.id()));
        assertEquals(limit, TestApiKeys.pastesOwnedBy(database(), key.id()), "a refused create left no row");
        assertEquals(limit, world.drainQueue().size());
    }

    /** Each API key has its own Idempotency-Keys: another key's holder cannot replay a paste (and get its token). */
    @Test
    void anIdempotencyKeyIsScopedToItsApiKey() throws Exception {
        TestApiKeys.Key first = TestApiKeys.issue(database(), null, null);
        TestApiKeys.Key second = TestApiKeys.issue(database(), null, null);
        String idempotencyKey = UUID.randomUUID().toString();

        HttpApi.Response mine = world.api.send(
                text("same bytes").header("authorization", first.bearer()).header("Idempotency-Key", idempotencyKey));
        HttpApi.Response theirs = world.api.send(
                text("same bytes").header("authorization", second.bearer()).header("Idempotency-Key", idempotencyKey));

        assertEquals(201, mine.status(), mine.text());
        assertEquals(201, theirs.status(), theirs.text());
        assertNull(theirs.header("Idempotent-Replayed"), "not a replay of the other key's paste");
        assertEquals(second.id(), TestApiKeys.ownerOf(database(), (String)
                world.json(theirs).get("shortCode")));
        HttpApi.Response replay = world.api.send(
                text("same bytes").header("authorization", first.bearer()).header("Idempotency-Key", idempotencyKey));
        assertEquals(world.json(mine).get("shortCode"), world.json(replay).get("shortCode"), "its own key replays");
    }

    /** A create whose upload job cannot be queued fails (its row FAILED), and gives its key's claim back. */
    @Test
    void aCreateWhoseJobCannotBeQueuedConsumesNothing() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), 1, null);
        try (HttpApi noQueue = HttpApi.start(Map.of(
                "pastebin.upload-queue.url",
                world.queues.queueUrl() + "-missing-" + UUID.randomUUID(),
                "pastebin.create.access",
                "api-key"))) {
            HttpApi.Response failed = noQueue.send(text("never queued").header("authorization", key.bearer()));
            assertEquals(500, failed.status(), failed.text());
        }

        assertEquals(0, TestApiKeys.pastesToday(database(), key.id()), "the failed create gave its claim back");
        assertEquals(
                201,
                world.api
                        .send(text("queued").header("authorization", key.bearer()))
                        .status());
        assertEquals(1, TestApiKeys.pastesToday(database(), key.id()));
    }

    @Test
    void theDailyByteLimitCountsContentAndARefusedOrReplayedCreateConsumesNothing() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), null, 10L);

        assertEquals(
                429,
                world.api
                        .send(text("eleven byte").header("authorization", key.bearer()))
                        .status());
        assertEquals(0, TestApiKeys.pastesToday(database(), key.id()), "a refused create consumes nothing");
        String idempotencyKey = UUID.randomUUID().toString();
        HttpApi.Response first = world.api.send(
                text("five!").header("authorization", key.bearer()).header("Idempotency-Key", idempotencyKey));
        assertEquals(201, first.status(), first.text());
        HttpApi.Response replay = world.api.send(
                text("five!").header("authorization", key.bearer()).header("Idempotency-Key", idempotencyKey));
        assertEquals(201, replay.status(), replay.text());
        assertEquals("true", replay.header("Idempotent-Replayed"));
        assertEquals(1, TestApiKeys.pastesToday(database(), key.id()), "the replay consumed nothing");
        assertEquals(
                429,
                world.api
                        .send(text("six!!!").header("authorization", key.bearer()))
                        .status());
        assertEquals(
                201,
                world.api
                        .send(text("five?").header("authorization", key.bearer()))
                        .status());
        assertEquals(2, TestApiKeys.pastesOwnedBy(database(), key.id()));
        assertNull(TestApiKeys.ownerOf(database(), "nosuchcode0"));
    }

    /**
     * A keyed create's job is queued in its key's message group, from whatever address (docs/design.md, "The upload
     * queue's groups"): the fair queue counts a key's pastes together, and another key's apart.
     */
    @Test
    void aKeyedCreateIsQueuedInItsKeysGroupFromAnyAddress() throws Exception {
        TestApiKeys.Key key = TestApiKeys.issue(database(), null, null);
        TestApiKeys.Key other = TestApiKeys.issue(database(), null, null);

        String fromOneAddress = groupOf(key, "198.51.100.20");

        assertEquals(fromOneAddress, groupOf(key, "203.0.113.21"));
        assertNotEquals(fromOneAddress, groupOf(other, "198.51.100.20"));
    }

    private static String groupOf(TestApiKeys.Key key, String sourceIp) {
        HttpApi.Request request = text("keyed " + UUID.randomUUID()).header("authorization", key.bearer());
        request.event().getRequestContext().getHttp().setSourceIp(sourceIp);
        HttpApi.Response response = world.api.send(request);
        assertEquals(201, response.status(), response.text());
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size(), "one job queued");
        return jobs.getFirst().attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
    }
}
