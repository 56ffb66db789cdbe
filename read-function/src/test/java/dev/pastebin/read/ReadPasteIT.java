package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.priming.ApiRequestPrimer;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.priming.StoragePrimer;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.crac.test.CheckpointSimulator;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * GET/HEAD /pastes/{shortCode} through the real handler, with rows in every state (set through the
 * repository, as the upload worker would) and real objects in this class's own bucket.
 */
@RealServices
class ReadPasteIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("read-it");

    private static PasteRepository repository() {
        return world.api.context().getBean(PasteRepository.class);
    }

    private static Paste inProgress(byte[] content) {
        return inProgress(world.api.context().getBean(ShortCodes.class).next(), content);
    }

    private static Paste inProgress(String code, byte[] content) {
        return repository().save(TestPastes.inProgress(code, null, ContentHash.sha256Hex(content), content.length));
    }

    /** What the upload worker does on success: the object, then the guarded transition. */
    private static Paste processed(byte[] content) {
        return processed(inProgress(content), content);
    }

    private static Paste processed(Paste paste, byte[] content) {
        StorageProperties storage = world.api.context().getBean(StorageProperties.class);
        world.s3.putObject(
                b -> b.bucket(world.bucket)
                        .key(storage.objectKey(paste.shortCode()))
                        .contentType("text/plain; charset=utf-8"),
                RequestBody.fromBytes(content));
        assertEquals(
                1,
                repository()
                        .markProcessed(
                                paste.shortCode(),
                                world.api
                                        .context()
                                        .getBean(PasteContentStore.class)
                                        .locationOf(paste.shortCode())
                                        .uri()));
        return repository().findById(paste.shortCode()).orElseThrow();
    }

    private static HttpApi.Request get(String shortCode) {
        return world.api.fixture("read-paste").path("/pastes/" + shortCode);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "English, Deutsch: äöüß, Русский, 日本語, 中文, العربية, עברית, हिन्दी",
                "emoji 🧪👩‍💻🏳️‍🌈",
                "CRLF\r\nLF\nCR\rTAB\tend\t\r\n",
                "\u0000 NUL, \u0007 BEL, \u001b ESC, \u007f DEL, \u00a0 NBSP, \ufeff BOM, \"quotes\" \\ </script>"
            })
    void aProcessedPasteIsItsExactBytes(String text) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);

        HttpApi.Response response = world.api.send(get(paste.shortCode()));

        assertEquals(200, response.status(), response.text());
        assertArrayEquals(content, response.body());
        assertEquals("text/plain; charset=utf-8", response.header("Content-Type"));
        assertEquals("nosniff", response.header("X-Content-Type-Options"));
        assertEquals("\"" + ContentHash.sha256Hex(content) + "\"", response.header("ETag"));
        assertEquals(
                "public, max-age=60, stale-if-error=0",
                response.header("Cache-Control"),
                "a cache may keep a paste a minute, then revalidates, and never serves it past that when revalidating"
                        + " fails: a DELETE takes effect within a minute, even while the read function answers 5xx");
        assertEquals("Accept", response.header("Vary"));
    }

    @Test
    void aPasteCreatedWhenCodesHad8CharactersIsStillReadable() {
        String oldCode = "Zz" + UUID.randomUUID().toString().replace("-", "").substring(0, 6);
        byte[] content = "from the 8-character days".getBytes(StandardCharsets.UTF_8);
        processed(inProgress(oldCode, content), content);

        HttpApi.Response response = world.api.send(get(oldCode));

        assertEquals(200, response.status(), response.text());
        assertArrayEquals(content, response.body());
        assertTrue(world.api.context().getBean(ShortCodes.class).next().length() >= 11, "new codes are longer");
    }

    @Test
    void theEtagAnswers304WithoutTouchingS3() {
        byte[] content = "cached".getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);
        String etag = world.api.send(get(paste.shortCode())).header("ETag");
        // gone from S3: only a 304 that never asks S3 can still succeed
        world.s3.deleteObject(b -> b.bucket(world.bucket).key("pastes/" + paste.shortCode()));

        HttpApi.Response response = world.api.send(get(paste.shortCode()).header("If-None-Match", etag));

        assertEquals(304, response.status());
        assertEquals(0, response.body().length);
        assertEquals(etag, response.header("ETag"));
        assertEquals(
                "public, max-age=60, stale-if-error=0",
                response.header("Cache-Control"),
                "a revalidated copy is good for another minute");
    }

    @Test
    void anotherEtagGetsTheContent() {
        byte[] content = "fresh".getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);
        HttpApi.Response response =
                world.api.send(get(paste.shortCode()).header("If-None-Match", "\"something-else\""));
        assertEquals(200, response.status());
        assertArrayEquals(content, response.body());
    }

    @Test
    void acceptJsonGetsMetadataAndContent() throws Exception {
        String text = "JSON view: 日本語 🧪\r\n\t\u0000";
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);

        HttpApi.Response response = world.api.send(get(paste.shortCode()).header("Accept", "application/json"));

        assertEquals(200, response.status(), response.text());
        assertTrue(response.header("Content-Type").startsWith("application/json"));
        Map<String, Object> body = world.json(response);
        assertEquals(paste.shortCode(), body.get("shortCode"));
        assertEquals("PROCESSED", body.get("status"));
        assertEquals(content.length, ((Number) body.get("sizeBytes")).intValue());
        assertEquals(ContentHash.sha256Hex(content), body.get("contentSha256"));
        assertEquals(paste.createdAt().toString(), body.get("createdAt"));
        assertEquals(text, body.get("content"));
        assertEquals("\"" + ContentHash.sha256Hex(content) + "-json\"", response.header("ETag"));
        assertEquals("nosniff", response.header("X-Content-Type-Options"));
    }

    @Test
    void headIsGetWithoutTheBody() {
        byte[] content = "héad".getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);

        HttpApi.Response response = world.api.send(get(paste.shortCode()).method("HEAD"));

        assertEquals(200, response.status());
        assertEquals(0, response.body().length);
        assertEquals("text/plain; charset=utf-8", response.header("Content-Type"));
        assertEquals(Integer.toString(content.length), response.header("Content-Length"));
        assertEquals("\"" + ContentHash.sha256Hex(content) + "\"", response.header("ETag"));
        assertEquals(
                404,
                world.api
                        .send(get(world.api.context().getBean(ShortCodes.class).next())
                                .method("HEAD"))
                        .status());
        assertEquals(400, world.api.send(get("bad!code").method("HEAD")).status());
    }

    @Test
    void anInProgressPasteIs202WithRetryAfter() throws Exception {
        Paste paste = inProgress("soon".getBytes(StandardCharsets.UTF_8));

        HttpApi.Response response = world.api.send(get(paste.shortCode()));

        assertEquals(202, response.status());
        assertEquals("1", response.header("Retry-After"));
        assertEquals("no-store", response.header("Cache-Control"));
        assertTrue(response.header("Content-Type").startsWith("application/json"));
        assertEquals(Map.of("shortCode", paste.shortCode(), "status", "IN_PROGRESS"), world.json(response));
        assertNull(response.header("ETag"));

        HttpApi.Response head = world.api.send(get(paste.shortCode()).method("HEAD"));
        assertEquals(202, head.status());
        assertEquals("1", head.header("Retry-After"));
        assertEquals(0, head.body().length);
    }

    @Test
    void aFailedPasteIsNotFound() throws Exception {
        Paste paste = inProgress("lost".getBytes(StandardCharsets.UTF_8));
        repository().markFailed(paste.shortCode(), "exhausted");

        assertError(
                world.api.send(get(paste.shortCode()).requestId("req-failed")), 404, "PASTE_NOT_FOUND", "req-failed");
    }

    @Test
    void anUnknownPasteIsNotFound() throws Exception {
        assertError(
                world.api.send(get(world.api.context().getBean(ShortCodes.class).next())
                        .requestId("req-unknown")),
                404,
                "PASTE_NOT_FOUND",
                "req-unknown");
    }

    @ParameterizedTest
    @ValueSource(strings = {"short", "waytoolongcode", "abc-defg", "abc_defg", "abcdéfgh", "%27%20OR%201"})
    void aMalformedCodeIs400(String code) throws Exception {
        assertError(world.api.send(get(code).requestId("req-400")), 400, "MALFORMED_SHORT_CODE", "req-400");
    }

    @Test
    void aProcessedRowWithoutItsObjectIs500() throws Exception {
        byte[] content = "vanished".getBytes(StandardCharsets.UTF_8);
        Paste paste = processed(content);
        world.s3.deleteObject(b -> b.bucket(world.bucket).key("pastes/" + paste.shortCode()));

        HttpApi.Response response = world.api.send(get(paste.shortCode()).requestId("req-500"));

        assertError(response, 500, "INTERNAL_ERROR", "req-500");
        assertFalse(response.text().contains(world.bucket), "no bucket names in responses");
    }

    @Test
    void anObjectThatDoesNotMatchItsHashIs500() throws Exception {
        Paste paste = processed("original".getBytes(StandardCharsets.UTF_8));
        world.s3.putObject(
                b -> b.bucket(world.bucket).key("pastes/" + paste.shortCode()), RequestBody.fromString("tampered"));

        assertError(
                world.api.send(get(paste.shortCode()).requestId("req-mismatch")),
                500,
                "INTERNAL_ERROR",
                "req-mismatch");
    }

    @Test
    void otherMethodsAre405AndOtherPaths404() throws Exception {
        HttpApi.Response post = world.api.send(get("aB3xYz9Q").method("POST").requestId("req-405"));
        assertError(post, 405, "METHOD_NOT_ALLOWED", "req-405");
        assertTrue(post.header("Allow").contains("GET"), post.header("Allow"));
        assertError(
                world.api.send(get("aB3xYz9Q").method("DELETE").requestId("req-405")),
                405,
                "METHOD_NOT_ALLOWED",
                "req-405");
        assertError(
                world.api.send(world.api
                        .fixture("read-paste")
                        .path("/pastes/aB3xYz9Q/raw")
                        .requestId("req-404")),
                404,
                "NOT_FOUND",
                "req-404");
    }

    @Test
    void anAcceptItCannotServeIs406() throws Exception {
        Paste paste = processed("x".getBytes(StandardCharsets.UTF_8));
        assertError(
                world.api.send(
                        get(paste.shortCode()).header("Accept", "image/png").requestId("req-406")),
                406,
                "NOT_ACCEPTABLE",
                "req-406");
    }

    static void assertError(HttpApi.Response response, int status, String code, String requestId) throws Exception {
        assertEquals(status, response.status(), response.text());
        assertTrue(response.header("Content-Type").startsWith("application/json"), response.header("Content-Type"));
        assertEquals("no-store", response.header("Cache-Control"));
        Map<String, Object> error = world.json(response);
        assertEquals(Map.of("code", code, "message", error.get("message"), "requestId", requestId), error);
        String message = (String) error.get("message");
        assertFalse(message.isBlank());
        assertFalse(message.contains("Exception") || message.contains("s3://") || message.contains("SQL"), message);
    }

    // SnapStart priming (core.priming): the hot path runs once against the real services, and a restore serves.

    private static Set<Class<?>> primerClasses(HttpApi api) {
        return api.context().getBeansOfType(Primer.class).stream()
                .map(Object::getClass)
                .collect(Collectors.toSet());
    }

    @Test
    void primesTheHandlerTheDatabaseAndTheBucket() {
        // The test class path also holds the create function (CreateThenReadIT), so its primers are here too.
        Set<Class<?>> primers = primerClasses(world.api);
        assertTrue(
                primers.containsAll(Set.of(ApiRequestPrimer.class, DatabasePrimer.class, StoragePrimer.class)),
                primers::toString);
        assertEquals(
                primers.size(),
                world.api.context().getBean(Priming.class).run("test"),
                "every primer succeeds against the real services");
    }

    @Test
    void aPrimerThatCannotReachItsServiceIsSkippedNotFatal() {
        try (HttpApi noBucket = HttpApi.start(Map.of(
                "pastebin.storage.bucket",
                "no-such-bucket-" + UUID.randomUUID(),
                "aws.s3.path-style-access-enabled",
                true))) {
            assertEquals(
                    primerClasses(noBucket).size() - 1,
                    noBucket.context().getBean(Priming.class).run("test"),
                    "the S3 primer fails on the missing bucket, the others run");
        }
    }

    @Test
    void aRestoredFunctionReadsThroughTheResumedPool() {
        int objectsBefore = world.s3.listObjectsV2(b -> b.bucket(world.bucket)).keyCount();
        CheckpointSimulator snapStart = world.api.context().getBean(CheckpointSimulator.class);
        snapStart.runBeforeCheckpoint();
        snapStart.runAfterRestore();

        assertEquals(
                objectsBefore,
                world.s3.listObjectsV2(b -> b.bucket(world.bucket)).keyCount(),
                "priming stored no object");
        HttpApi.Response missing =
                world.api.send(world.api.fixture("read-paste").path("/pastes/zzzzzzzz"));
        assertEquals(404, missing.status(), missing.text());
    }
}
