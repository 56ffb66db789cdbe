package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rejected POST answers the one error shape with its stable code, and enqueues nothing. The limit is
 * lowered to 64 bytes so the size cases stay small.
 */
@RealServices
class CreatePasteErrorsIT {

    private static final int LIMIT = 64;

    @RegisterExtension
    static final CreateWorld world = new CreateWorld(
                    "create-errors-it", Map.of("pastebin.paste.max-content-bytes", LIMIT))
            .keepingJobsBetweenTests();

    @AfterAll
    static void nothingReachedTheQueue() {
        // runs before the world's own clean-up: nothing any of the rejected requests did reached the queue
        assertTrue(world.drainQueue().isEmpty(), "a rejected request enqueued a job");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> rejectedBodies() {
        return Stream.of(
                Arguments.of("text/plain", null, 400, "EMPTY_CONTENT"),
                Arguments.of("text/plain", new byte[] {(byte) 0xC3, 0x28}, 400, "INVALID_UTF8"),
                Arguments.of("text/plain", new byte[] {'o', 'k', (byte) 0xE2, (byte) 0x82}, 400, "INVALID_UTF8"),
                Arguments.of("text/plain", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, 400, "INVALID_UTF8"),
                Arguments.of("text/plain", utf8("x".repeat(LIMIT + 1)), 413, "CONTENT_TOO_LARGE"),
                Arguments.of("text/plain", utf8("🧪".repeat(LIMIT / 4) + "x"), 413, "CONTENT_TOO_LARGE"),
                Arguments.of("text/plain; charset=iso-8859-1", utf8("abc"), 415, "UNSUPPORTED_MEDIA_TYPE"),
                Arguments.of("application/json", null, 400, "EMPTY_CONTENT"),
                Arguments.of("application/json", utf8("not json"), 400, "INVALID_JSON"),
                Arguments.of("application/json", utf8("[\"content\"]"), 400, "INVALID_JSON"),
                Arguments.of("application/json", utf8("{\"content\": \"unterminated"), 400, "INVALID_JSON"),
                Arguments.of("application/json", utf8("{}"), 400, "MISSING_CONTENT"),
                Arguments.of("application/json", utf8("{\"text\": \"hi\"}"), 400, "MISSING_CONTENT"),
                Arguments.of("application/json", utf8("{\"content\": 42}"), 400, "MISSING_CONTENT"),
                Arguments.of("application/json", utf8("{\"content\": \"\"}"), 400, "EMPTY_CONTENT"),
                Arguments.of("application/json", utf8("{\"content\": \"\\ud800\"}"), 400, "INVALID_UTF8"),
                Arguments.of(
                        "application/json",
                        new byte[] {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xFF, '"', '}'},
                        400,
                        "INVALID_UTF8"),
                Arguments.of(
                        "application/json",
                        utf8("{\"content\": \"" + "y".repeat(LIMIT + 1) + "\"}"),
                        413,
                        "CONTENT_TOO_LARGE"),
                Arguments.of("application/xml", utf8("<paste/>"), 415, "UNSUPPORTED_MEDIA_TYPE"),
                Arguments.of("image/png", new byte[] {(byte) 0x89, 'P', 'N', 'G'}, 415, "UNSUPPORTED_MEDIA_TYPE"));
    }

    @ParameterizedTest(name = "{0} {2} {3}")
    @MethodSource("rejectedBodies")
    void aRejectedBodyAnswersItsCode(String contentType, byte[] body, int status, String code) throws Exception {
        HttpApi.Request request = world.api
                .fixture("create-paste-text")
                .header("Content-Type", contentType)
                .requestId("req-" + code);
        if (body == null) {
            request.noBody();
        } else {
            request.binaryBody(body);
        }
        HttpApi.Response response = world.api.send(request);
        assertError(response, status, code, "req-" + code);
        if (status == 415) {
            String message = (String) world.api
                    .context()
                    .getBean(JsonMapper.class)
                    .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                    .get("message");
            assertTrue(
                    (message.contains("text/plain") && message.contains("application/json"))
                            || message.contains("utf-8"),
                    message);
        }
    }

    @Test
    void theLimitItselfIsAccepted() throws Exception {
        HttpApi.Response response =
                world.api.send(world.api.fixture("create-paste-text").binaryBody(utf8("🧪".repeat(LIMIT / 4))));
        assertEquals(201, response.status(), response.text());
        assertEquals(1, world.drainQueue().size());
    }

    @Test
    void aBodyWithoutContentTypeIsUnsupported() throws Exception {
        HttpApi.Response response = world.api.send(world.api
                .fixture("create-paste-text")
                .withoutHeader("Content-Type")
                .binaryBody(utf8("no type"))
                .requestId("req-no-type"));
        assertError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "req-no-type");
        assertTrue(((String) world.api
                        .context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                        .get("message"))
                .contains("text/plain"));
    }

    @Test
    void aWrongMethodIs405WithAllow() throws Exception {
        // PUT /pastes is curl -T's upload of a file named "pastes" (PUT /{name}); at the root no PUT is routed
        HttpApi.Response response = world.api.send(
                world.api.fixture("create-paste-text").path("/").method("PUT").requestId("req-405"));
        assertError(response, 405, "METHOD_NOT_ALLOWED", "req-405");
        assertEquals("POST", response.header("Allow"));
    }

    @Test
    void anUnknownPathIs404() throws Exception {
        assertError(
                world.api.send(world.api
                        .fixture("create-paste-text")
                        .path("/nothing/here")
                        .requestId("req-404")),
                404,
                "NOT_FOUND",
                "req-404");
    }

    private void assertError(HttpApi.Response response, int status, String code, String requestId) throws Exception {
        assertEquals(status, response.status(), response.text());
        assertTrue(response.header("Content-Type").startsWith("application/json"), response.header("Content-Type"));
        assertEquals("no-store", response.header("Cache-Control"));
        Map<String, Object> error = world.api
                .context()
                .getBean(JsonMapper.class)
                .readValue(response.body(), Argument.mapOf(String.class, Object.class));
        assertEquals(
                Map.of("code", code, "message", error.get("message"), "requestId", requestId),
                error,
                "exactly code, message and requestId");
        String message = (String) error.get("message");
        assertFalse(message.isBlank());
        assertFalse(message.contains("Exception") || message.contains("at dev.") || message.contains("SQL"), message);
    }
}
