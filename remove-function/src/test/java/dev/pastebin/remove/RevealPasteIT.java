package dev.pastebin.remove;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** POST /pastes/{shortCode}/reveal: burn after reading against the real database and S3. */
@RealServices
class RevealPasteIT {

    private static RemoveWorld world;

    @BeforeAll
    static void start() {
        // a connection per concurrent reader, open already, as warm Lambda instances would have; and the 30 s a
        // busy machine may need to open them (within the functions' 5 s connection-timeout a reader could answer 503)
        world = new RemoveWorld(
                "reveal-it",
                Map.of(
                        "datasources.default.maximum-pool-size",
                        20,
                        "datasources.default.minimum-idle",
                        20,
                        "datasources.default.connection-timeout",
                        30_000));
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    private static String storedReadOnce(String content) throws Exception {
        String code = (String) world.create("{\"content\":\"" + content + "\",\"readOnce\":true}")
                .get("shortCode");
        world.store(code);
        return code;
    }

    @Test
    void theFirstRevealGetsTheExactBytesAndThePasteIsGone() throws Exception {
        String code = storedReadOnce("a secret \\u00e9\\n");

        HttpApi.Response revealed = world.api.send(world.reveal(code));

        assertEquals(200, revealed.status(), revealed.text());
        assertArrayEquals("a secret é\n".getBytes(StandardCharsets.UTF_8), revealed.body());
        assertEquals("text/plain; charset=utf-8", revealed.header("Content-Type"));
        assertEquals("no-store", revealed.header("Cache-Control"));
        assertTrue(world.row(code).isEmpty(), "row removed");
        assertFalse(world.objectExists(code), "object removed");

        HttpApi.Response again = world.api.send(world.reveal(code));
        assertEquals(404, again.status(), again.text());
        assertEquals("PASTE_NOT_FOUND", world.json(again).get("code"));
    }

    @Test
    void withAcceptJsonTheRevealIsTheJsonView() throws Exception {
        String code = storedReadOnce("json secret");

        HttpApi.Response revealed = world.api.send(world.reveal(code).header("Accept", "application/json"));

        assertEquals(200, revealed.status(), revealed.text());
        Map<String, Object> view = world.json(revealed);
        assertEquals(code, view.get("shortCode"));
        assertEquals("json secret", view.get("content"));
        assertEquals(true, view.get("readOnce"));
        assertEquals("PROCESSED", view.get("status"));
        assertTrue(view.containsKey("expiresAt"));
        assertEquals("no-store", revealed.header("Cache-Control"));
    }

    @Test
    void whileUploadingARevealIs202AndBurnsNothing() throws Exception {
        String code = (String)
                world.create("{\"content\":\"not yet\",\"readOnce\":true}").get("shortCode");

        HttpApi.Response pending = world.api.send(world.reveal(code));

        assertEquals(202, pending.status(), pending.text());
        assertEquals("1", pending.header("Retry-After"));
        assertEquals("no-store", pending.header("Cache-Control"));
        assertEquals("IN_PROGRESS", world.json(pending).get("status"));
        world.store(code);
        assertEquals(200, world.api.send(world.reveal(code)).status(), "still there to be revealed once");
    }

    @Test
    void aPasteThatIsNotReadOnceIs409AndKept() throws Exception {
        String code = (String) world.create("{\"content\":\"ordinary\"}").get("shortCode");
        world.store(code);

        HttpApi.Response refused = world.api.send(world.reveal(code));

        assertEquals(409, refused.status(), refused.text());
        assertEquals("NOT_READ_ONCE", world.json(refused).get("code"));
        assertTrue(world.row(code).isPresent());
        assertTrue(world.objectExists(code));
    }

    @Test
    void whenS3FailsAfterTheRowIsLockedTheRevealIs503AndThePasteIsKept() throws Exception {
        String code = storedReadOnce("survives an outage");
        // nothing listens on port 1: the GetObject after the row lock fails, the transaction rolls back
        try (HttpApi s3Down = HttpApi.start(Map.of(
                "aws.services.s3.endpoint-override",
                "http://127.0.0.1:1",
                "aws.s3.path-style-access-enabled",
                true,
                "pastebin.storage.bucket",
                world.bucket))) {
            HttpApi.Response failed = s3Down.send(s3Down.fixture("read-paste")
                    .path("/pastes/" + code + "/reveal")
                    .method("POST"));

            assertEquals(503, failed.status(), failed.text());
            assertEquals("SERVICE_UNAVAILABLE", world.json(failed).get("code"));
        }
        assertTrue(world.row(code).isPresent(), "nothing burnt");
        HttpApi.Response revealed = world.api.send(world.reveal(code));
        assertEquals(200, revealed.status(), revealed.text());
        assertEquals("survives an outage", revealed.text());
    }

    /**
     * A hung S3 must not hold the row lock until the 20 s Lambda timeout: the client's attempt and call timeouts
     * end the reveal with 503 in seconds, and the paste is kept.
     */
    @Test
    void aHungS3EndsTheRevealIn503WellInsideTheFunctionTimeout() throws Exception {
        String code = storedReadOnce("outlives a hang");
        try (var proxy = new FaultProxy(
                        URI.create(System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566")));
                HttpApi hung = HttpApi.start(Map.of(
                        "aws.services.s3.endpoint-override",
                        proxy.endpoint().toString(),
                        "aws.s3.path-style-access-enabled",
                        true,
                        "pastebin.storage.bucket",
                        world.bucket))) {
            proxy.failGets(FaultProxy.Fault.HANG);
            long started = System.nanoTime();
            HttpApi.Response failed = hung.send(hung.fixture("read-paste")
                    .path("/pastes/" + code + "/reveal")
                    .method("POST"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertEquals(503, failed.status(), failed.text());
            assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "answered after " + took);
        }
        assertTrue(world.row(code).isPresent(), "nothing burnt");
    }

    /** The row is locked only to burn it: a slow GetObject does not hold it, so other callers never queue behind S3. */
    @Test
    void theRowIsNotLockedWhileTheContentIsRead() throws Exception {
        String code = storedReadOnce("read before the lock");
        try (var proxy = new FaultProxy(
                        URI.create(System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566")));
                HttpApi slow = HttpApi.start(Map.of(
                        "aws.services.s3.endpoint-override",
                        proxy.endpoint().toString(),
                        "aws.s3.path-style-access-enabled",
                        true,
                        "pastebin.storage.bucket",
                        world.bucket));
                ExecutorService caller = Executors.newSingleThreadExecutor()) {
            proxy.failGets(FaultProxy.Fault.HANG);
            Future<HttpApi.Response> reveal = caller.submit(() -> slow.send(slow.fixture("read-paste")
                    .path("/pastes/" + code + "/reveal")
                    .method("POST")));
            // the reveal is inside its GetObject, which hangs for 9 s
            await().atMost(Duration.ofSeconds(5)).until(() -> proxy.faultedGetCount() > 0);

            DataSource dataSource =
                    DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
            try (Connection other = dataSource.getConnection()) {
                other.setAutoCommit(false);
                try (var lock = other.prepareStatement(
                        "SELECT short_code FROM pastes WHERE short_code = ? FOR UPDATE NOWAIT")) {
                    lock.setString(1, code);
                    lock.executeQuery().close();
                } finally {
                    other.rollback();
                }
            }
            assertEquals(503, reveal.get().status());
        }
        assertTrue(world.row(code).isPresent(), "nothing burnt");
    }

    /**
     * Expiry wins over read-once: a reveal after {@code expires_at} is the 404 of a paste that is gone, however
     * the row still looks, and burns nothing itself (the sweeper deletes expired rows with their objects).
     */
    @Test
    void anExpiredReadOncePasteIs404AndIsNotRevealed() throws Exception {
        String code = (String) world.create("{\"content\":\"expired secret\",\"readOnce\":true,\"expiresIn\":60}")
                .get("shortCode");
        world.store(code);
        DataSource dataSource =
                DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
        try (Connection sweepersKeptAway = dataSource.getConnection()) {
            // The database is shared, and another runtime's sweeper may run meanwhile: this transaction's key-share
            // lock, taken before the paste expires, makes every sweeper pass the row by (FOR UPDATE SKIP LOCKED),
            // so the row below is as the reveal left it. It lets the expiry's UPDATE through; a reveal that tried
            // to burn the row would wait on it and fail the request.
            sweepersKeptAway.setAutoCommit(false);
            try (var lock = sweepersKeptAway.prepareStatement(
                    "SELECT short_code FROM pastes WHERE short_code = ? FOR KEY SHARE")) {
                lock.setString(1, code);
                assertTrue(lock.executeQuery().next(), "the row, before it expires");
            }
            expireNow(code);

            HttpApi.Response revealed = world.api.send(world.reveal(code));

            assertEquals(404, revealed.status(), revealed.text());
            assertEquals("PASTE_NOT_FOUND", world.json(revealed).get("code"));
            assertFalse(revealed.text().contains("expired secret"));
            assertTrue(world.row(code).isPresent() && world.objectExists(code), "left to the sweeper, untouched");
            sweepersKeptAway.rollback();
        } finally {
            // the sweeper's tests expect no expiring paste but their own in the shared database
            world.api.context().getBean(PasteRepository.class).remove(code);
        }
    }

    /** As if its lifetime had run out: {@code expires_at} a second ago. */
    private static void expireNow(String code) throws Exception {
        DataSource dataSource =
                DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class));
        try (Connection db = dataSource.getConnection();
                var expire = db.prepareStatement(
                        "UPDATE pastes SET expires_at = now() - interval '1 second' WHERE short_code = ?")) {
            expire.setString(1, code);
            assertEquals(1, expire.executeUpdate());
        }
    }

    @Test
    void aMalformedCodeIs400() throws Exception {
        HttpApi.Response response = world.api.send(world.reveal("bad!code"));
        assertEquals(400, response.status(), response.text());
        assertEquals("MALFORMED_SHORT_CODE", world.json(response).get("code"));
    }

    /** Many readers at the same moment, each its own request and database connection: exactly one 200. */
    @Test
    void concurrentRevealsGiveTheContentToExactlyOneCaller() throws Exception {
        int readers = 16;
        for (int round = 0; round < 3; round++) {
            String code = storedReadOnce("only once " + round);
            ExecutorService pool = Executors.newFixedThreadPool(readers);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpApi.Response>> answers = new ArrayList<>();
            try {
                for (int i = 0; i < readers; i++) {
                    answers.add(pool.submit(() -> {
                        go.await();
                        return world.api.send(world.reveal(code));
                    }));
                }
                go.countDown();
                int ok = 0;
                int gone = 0;
                for (Future<HttpApi.Response> answer : answers) {
                    HttpApi.Response response = answer.get();
                    if (response.status() == 200) {
                        ok++;
                        assertEquals("only once " + round, response.text());
                    } else {
                        assertEquals(404, response.status(), response.text());
                        gone++;
                    }
                }
                assertEquals(1, ok, "exactly one reader gets the content");
                assertEquals(readers - 1, gone);
                assertTrue(world.row(code).isEmpty());
                assertFalse(world.objectExists(code));
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
