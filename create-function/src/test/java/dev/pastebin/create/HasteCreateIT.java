package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The haste protocol's create ({@code POST /documents}) through the real handler, database and queue: the raw
 * body is the paste whatever Content-Type a haste client sends, answered 200 {"key"} once its upload is queued;
 * refusals are the API's JSON error, whose {@code message} a haste client shows.
 */
@RealServices
class HasteCreateIT {

    private static final int LIMIT = 64;

    @RegisterExtension
    static final CreateWorld world =
            new CreateWorld("create-haste-it", Map.of("pastebin.paste.max-content-bytes", LIMIT));

    /** Bytes a form decoder would mangle: '+', '%', '&', '=', CRLF, non-ASCII. */
    private static final byte[] CONTENT = "a+b=c & 100%\r\n\tGrüße ✓\n".getBytes(StandardCharsets.UTF_8);

    private static HttpApi.Request post(String contentType, byte[] body) {
        HttpApi.Request request =
                world.api.fixture("create-paste-text").path("/documents").binaryBody(body);
        return contentType == null
                ? request.withoutHeader("Content-Type")
                : request.header("Content-Type", contentType);
    }

    /** The answer's key names a queued paste of exactly these bytes, one job, the X-Token deletes it. */
    private static Paste assertCreated(HttpApi.Response response, byte[] content) throws Exception {
        assertEquals(200, response.status(), "haste clients act on 200: " + response.text());
        assertEquals("application/json", response.header("Content-Type"));
        assertEquals("no-store", response.header("Cache-Control"));
        Map<String, Object> answer = world.json(response);
        assertEquals(List.of("key"), List.copyOf(answer.keySet()), response.text());
        String code = (String) answer.get("key");
        Paste row = world.row(code);
        assertEquals(PasteStatus.IN_PROGRESS, row.status());
        assertEquals(ContentHash.sha256Hex(content), row.contentSha256());
        assertNull(row.expiresAt());
        assertEquals(false, row.readOnce());
        assertEquals(DeleteTokens.hashOf(response.header("X-Token")), row.deleteTokenSha256(), "X-Token deletes it");
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size(), "exactly one upload job");
        UploadJob job = world.api
                .context()
                .getBean(UploadJobCodec.class)
                .decode(jobs.get(0).body());
        assertEquals(code, job.shortCode());
        assertArrayEquals(content, job.content());
        return row;
    }

    /** None (Python's requests with bytes), text/plain (most clients), and curl --data-binary's default. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "text/plain",
                "text/plain; charset=utf-8",
                "application/x-www-form-urlencoded",
                "application/octet-stream"
            })
    void theRawBodyIsThePasteWhateverTheContentType(String contentType) throws Exception {
        assertCreated(world.api.send(post(contentType.isEmpty() ? null : contentType, CONTENT)), CONTENT);
    }

    @Test
    void aMultipartDataFieldIsThePasteAsHasteServerReadsIt() throws Exception {
        String boundary = "haste-" + UUID.randomUUID();
        byte[] body = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n"
                        + new String(CONTENT, StandardCharsets.UTF_8) + "\r\n--" + boundary + "--\r\n")
                .getBytes(StandardCharsets.UTF_8);

        assertCreated(world.api.send(post("multipart/form-data; boundary=" + boundary, body)), CONTENT);
    }

    @Test
    void aRetryWithTheSameIdempotencyKeyAnswersTheSameKey() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpApi.Response first = world.api.send(post("text/plain", CONTENT).header("Idempotency-Key", key));
        String code = assertCreated(first, CONTENT).shortCode();

        HttpApi.Response replay = world.api.send(post("text/plain", CONTENT).header("Idempotency-Key", key));

        assertEquals(200, replay.status(), replay.text());
        assertEquals(Map.of("key", code), world.json(replay));
        assertEquals("true", replay.header("Idempotent-Replayed"));
    }

    private static void assertRefused(HttpApi.Response response, int status, String code) throws Exception {
        assertEquals(status, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"), "haste clients parse JSON errors");
        Map<String, Object> error = world.json(response);
        assertEquals(code, error.get("code"));
        assertTrue(
                error.get("message") instanceof String message && !message.isBlank(),
                "a message for the client to show");
        assertTrue(world.drainQueue().isEmpty(), "nothing queued");
    }

    @Test
    void badDocumentsAreRefusedWithTheApisJsonError() throws Exception {
        assertRefused(world.api.send(post("text/plain", new byte[0])), 400, "EMPTY_CONTENT");
        assertRefused(world.api.send(post(null, new byte[] {(byte) 0xff, (byte) 0xfe})), 400, "INVALID_UTF8");
        assertRefused(
                world.api.send(post("text/plain", "x".repeat(LIMIT + 1).getBytes(StandardCharsets.UTF_8))),
                413,
                "CONTENT_TOO_LARGE");
        assertRefused(world.api.send(post("text/plain; charset=iso-8859-1", CONTENT)), 415, "UNSUPPORTED_MEDIA_TYPE");
        assertRefused(
                world.api.send(post(
                        "multipart/form-data; boundary=b",
                        "--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n--b--\r\n"
                                .getBytes(StandardCharsets.UTF_8))),
                400,
                "MISSING_CONTENT");
    }
}
