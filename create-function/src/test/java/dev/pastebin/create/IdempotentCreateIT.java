package dev.pastebin.create;

import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Idempotency-Key on POST /pastes against the real database and queue: one paste, one job, however often it is sent. */
@RealServices
class IdempotentCreateIT {


    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-idempotent-it");

    private static HttpApi.Request create(String key, String content) {
        return world.api.fixture("create-paste-json").header("Idempotency-Key", key)
                .textBody("{\"content\":\"" + content + "\",\"readOnce\":false}");
    }

    /** The plain pool, outside Micronaut Data's connection management. */
    private static Connection database() throws Exception {
        return DelegatingDataSource.unwrapDataSource(world.api.context().getBean(DataSource.class)).getConnection();
    }

    private static String storedTokenHash(String code) {
        return world.api.context().getBean(PasteRepository.class).findById(code).orElseThrow().deleteTokenSha256();
    }

    @Test
    void theSameRequestAgainReplaysThePasteWithANewDeletionToken() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpApi.Request withExpiry = world.api.fixture("create-paste-json").header("Idempotency-Key", key)
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
        assertEquals(DeleteTokens.hashOf((String) two.get("deleteToken")), storedTokenHash(code),
                "the replay's token replaces the first one");
        assertEquals(1, world.drainQueue().size(), "one job, not two");
        // the sweeper's tests expect no expiring paste but their own in the shared database
        world.api.context().getBean(PasteRepository.class).remove(code);
    }

    @Test
    void theSameKeyWithOtherContentOrOptionsIs422() throws Exception {
        String key = UUID.randomUUID().toString();
        assertEquals(201, world.api.send(create(key, "original")).status());

        HttpApi.Response otherContent = world.api.send(create(key, "changed"));
        HttpApi.Response otherOptions = world.api.send(world.api.fixture("create-paste-json").header("Idempotency-Key", key)
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
        String anonymous = (String) world.json(world.api.send(create(key, "same"))).get("shortCode");
        String asUser = (String) world.json(world.api.send(create(key, "same").jwtSubject("user-" + key))).get("shortCode");

        assertNotEquals(anonymous, asUser);
        assertEquals(2, world.drainQueue().size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "slash/no", "ü", "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"})
    void aMalformedKeyIs400(String key) throws Exception {
        HttpApi.Response response = world.api.send(create(key, "x"));

        assertEquals(400, response.status(), response.text());
        assertEquals("INVALID_IDEMPOTENCY_KEY", world.json(response).get("code"));
        assertTrue(world.drainQueue().isEmpty());
    }

    @Test
    void theLongestAndOddestAllowedKeysWork() throws Exception {
        for (String key : List.of("a".repeat(127) + UUID.randomUUID().toString().charAt(0), "k:" + UUID.randomUUID() + "._-")) {
            HttpApi.Response response = world.api.send(create(key, "x"));
            assertEquals(201, response.status(), key + ": " + response.text());
        }
    }

    @Test
    void concurrentRequestsWithOneKeyMakeOnePaste() throws Exception {
        String key = UUID.randomUUID().toString();
        int requests = 8;
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpApi.Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < requests; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return world.api.send(create(key, "raced"));
                }));
            }
            go.countDown();
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
            assertEquals(1, world.drainQueue().size(), "one job");
        } finally {
            pool.shutdownNow();
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

    @Test
    void aReplayOfAPasteThatIsGoneIs404AndCreatesNothing() throws Exception {
        String key = UUID.randomUUID().toString();
        String code = (String) world.json(world.api.send(create(key, "short-lived"))).get("shortCode");
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
}
