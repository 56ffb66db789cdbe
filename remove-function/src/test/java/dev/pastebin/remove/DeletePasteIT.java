package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.priming.ApiRequestPrimer;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.faults.FaultProxy;
import java.net.URI;
import java.time.Instant;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** DELETE /pastes/{shortCode} with the token POST /pastes gave, against the real database and S3. */
@RealServices
class DeletePasteIT {

    private static RemoveWorld world;

    @BeforeAll
    static void start() {
        world = new RemoveWorld("delete-it");
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    /** SnapStart priming (core.priming) sends its DELETE through the real handler and removes nothing. */
    @Test
    void primingRunsEveryPrimerAndRemovesNothing() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"kept while priming\"}");
        String code = (String) created.get("shortCode");
        world.store(code);
        Set<Class<?>> primers = world.api.context().getBeansOfType(Primer.class).stream()
                .map(Object::getClass)
                .collect(Collectors.toSet());
        assertTrue(primers.containsAll(Set.of(ApiRequestPrimer.class, DatabasePrimer.class)), primers::toString);

        assertEquals(
                primers.size(),
                world.api.context().getBean(Priming.class).run("test"),
                "every primer succeeds against the real services");

        assertTrue(world.row(code).isPresent(), "the paste is still there");
        assertTrue(world.objectExists(code));
    }

    /**
     * S3 refusing the object's delete leaves the paste whole (row and object: the row's removal commits only
     * after S3 confirmed), never a gone row with its content left behind; the owner's retry removes both.
     */
    @Test
    void whenS3RefusesTheDeleteThePasteIsKeptWholeAndARetryRemovesIt() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"refused, then deleted\"}");
        String code = (String) created.get("shortCode");
        String token = (String) created.get("deleteToken");
        world.store(code);
        try (var proxy = new FaultProxy(
                        URI.create(System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566")));
                HttpApi refusing = HttpApi.start(Map.of(
                        "aws.services.s3.endpoint-override",
                        proxy.endpoint().toString(),
                        "aws.s3.path-style-access-enabled",
                        true,
                        "pastebin.storage.bucket",
                        world.bucket))) {
            proxy.refuseDeletes();
            HttpApi.Response refused = refusing.send(refusing.fixture("read-paste")
                    .path("/pastes/" + code)
                    .method("DELETE")
                    .header("Paste-Delete-Token", token));

            assertEquals(500, refused.status(), refused.text());
        }
        assertTrue(world.row(code).isPresent(), "the row's removal was rolled back");
        assertTrue(world.objectExists(code));

        HttpApi.Response deleted = world.api.send(world.delete(code, token));
        assertEquals(204, deleted.status(), deleted.text());
        assertTrue(world.row(code).isEmpty());
        assertFalse(world.objectExists(code));
    }

    @Test
    void aStoredPasteIsDeletedWithItsTokenRowAndObject() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"delete me\"}");
        String code = (String) created.get("shortCode");
        world.store(code);
        assertTrue(world.objectExists(code));

        HttpApi.Response deleted = world.api.send(world.delete(code, (String) created.get("deleteToken")));

        assertEquals(204, deleted.status(), deleted.text());
        assertEquals(0, deleted.body().length);
        assertTrue(world.row(code).isEmpty(), "row removed");
        assertFalse(world.objectExists(code), "object removed");
        HttpApi.Response again = world.api.send(world.delete(code, (String) created.get("deleteToken")));
        assertEquals(404, again.status());
    }

    @Test
    void aPasteStillUploadingIsDeletedAndNeverComesBackProcessed() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"in flight\"}");
        String code = (String) created.get("shortCode");

        assertEquals(
                204,
                world.api
                        .send(world.delete(code, (String) created.get("deleteToken")))
                        .status());

        assertTrue(world.row(code).isEmpty());
        // the upload worker finishing now: its guarded transition finds no row (it then removes its object)
        assertEquals(
                0,
                world.api
                        .context()
                        .getBean(PasteRepository.class)
                        .markProcessed(code, "s3://" + world.bucket + "/pastes/" + code));
        assertTrue(world.row(code).isEmpty());
        world.sqs.purgeQueue(b -> b.queueUrl(world.queues.queueUrl()));
    }

    @Test
    void aWrongTokenAnUnknownCodeAndAnExpiredPasteAllLookTheSame() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"mine\"}");
        String code = (String) created.get("shortCode");
        String unknown = world.api.context().getBean(ShortCodes.class).next();
        String expired = expiredPasteWithToken((String) created.get("deleteToken"));

        HttpApi.Response wrongToken = world.api.send(world.delete(code, "x" + created.get("deleteToken")));
        HttpApi.Response unknownCode = world.api.send(world.delete(unknown, (String) created.get("deleteToken")));
        HttpApi.Response expiredPaste = world.api.send(world.delete(expired, (String) created.get("deleteToken")));

        for (HttpApi.Response response : new HttpApi.Response[] {wrongToken, unknownCode, expiredPaste}) {
            assertEquals(404, response.status(), response.text());
            Map<String, Object> error = world.json(response);
            assertEquals("PASTE_NOT_FOUND", error.get("code"));
        }
        assertEquals(
                world.json(wrongToken).get("message").toString().replace(code, "?"),
                world.json(unknownCode).get("message").toString().replace(unknown, "?"),
                "the same words");
        assertTrue(world.row(code).isPresent(), "a wrong token deletes nothing");
        // the sweeper's tests expect no expired paste but their own in the shared database
        world.api.context().getBean(PasteRepository.class).remove(expired);
        world.sqs.purgeQueue(b -> b.queueUrl(world.queues.queueUrl()));
    }

    @Test
    void withoutTheHeaderIt401sAndAMalformedCodeIs400() throws Exception {
        Map<String, Object> created = world.create("{\"content\":\"kept\"}");
        String code = (String) created.get("shortCode");

        HttpApi.Response noToken = world.api.send(world.delete(code, null));
        HttpApi.Response emptyToken = world.api.send(world.delete(code, ""));
        HttpApi.Response malformed = world.api.send(world.delete("not-a-code", "whatever"));

        assertEquals(401, noToken.status(), noToken.text());
        assertEquals("DELETE_TOKEN_REQUIRED", world.json(noToken).get("code"));
        assertEquals(401, emptyToken.status(), emptyToken.text());
        assertEquals(400, malformed.status(), malformed.text());
        assertEquals("MALFORMED_SHORT_CODE", world.json(malformed).get("code"));
        assertTrue(world.row(code).isPresent());
        world.sqs.purgeQueue(b -> b.queueUrl(world.queues.queueUrl()));
    }

    /**
     * A create and its replays racing (a double submit, a client that timed out and retried while the first
     * request was still running): every 201 carries a token, and every one of them deletes the paste.
     */
    @Test
    void everyTokenACreateAndItsConcurrentReplaysAnsweredDeletesThePaste() throws Exception {
        int requests = 4;
        for (int tokenUsed = 0; tokenUsed < requests; tokenUsed++) {
            String key = "replay-" + UUID.randomUUID();
            List<HttpApi.Response> answers = createConcurrently(key, requests);
            Set<Object> codes = new HashSet<>();
            for (HttpApi.Response answer : answers) {
                assertEquals(201, answer.status(), answer.text());
                codes.add(world.json(answer).get("shortCode"));
            }
            assertEquals(1, codes.size(), "one paste: " + codes);
            String code = (String) codes.iterator().next();

            String token = (String) world.json(answers.get(tokenUsed)).get("deleteToken");
            HttpApi.Response deleted = world.api.send(world.delete(code, token));

            assertEquals(
                    204,
                    deleted.status(),
                    "token of answer " + tokenUsed + " ("
                            + answers.get(tokenUsed).header("Idempotent-Replayed") + "): " + deleted.text());
            assertTrue(world.row(code).isEmpty());
        }
        world.sqs.purgeQueue(b -> b.queueUrl(world.queues.queueUrl()));
    }

    private static List<HttpApi.Response> createConcurrently(String key, int requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<HttpApi.Response>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return world.api.send(world.api
                            .fixture("create-paste-json")
                            .header("Idempotency-Key", key)
                            .textBody("{\"content\":\"replayed\"}"));
                }));
            }
            go.countDown();
            List<HttpApi.Response> responses = new ArrayList<>();
            for (Future<HttpApi.Response> answer : answers) {
                responses.add(answer.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPasteCreatedWhenCodesHad8CharactersCanStillBeDeleted() throws Exception {
        String oldCode = "Zz" + UUID.randomUUID().toString().replace("-", "").substring(0, 6);
        String token = "old-token-" + UUID.randomUUID();
        world.api
                .context()
                .getBean(PasteRepository.class)
                .save(TestPastes.inProgress(
                        oldCode,
                        null,
                        "a".repeat(64),
                        1,
                        dev.pastebin.core.paste.DeleteTokens.hashOf(token),
                        null,
                        false));

        HttpApi.Response deleted = world.api.send(world.delete(oldCode, token));

        assertEquals(204, deleted.status(), deleted.text());
        assertTrue(world.row(oldCode).isEmpty());
    }

    private String expiredPasteWithToken(String token) {
        String code = world.api.context().getBean(ShortCodes.class).next();
        world.api
                .context()
                .getBean(PasteRepository.class)
                .save(TestPastes.inProgress(
                        code,
                        null,
                        "a".repeat(64),
                        1,
                        dev.pastebin.core.paste.DeleteTokens.hashOf(token),
                        Instant.now().minusSeconds(1),
                        false));
        return code;
    }
}
