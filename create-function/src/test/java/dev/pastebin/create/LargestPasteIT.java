package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.support.RealServices;
import io.micronaut.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The default content limit (the largest paste whose upload job fits the queue's 1 MiB messages: docs/design.md, "Paste
 * size") on every create route and body form, with the function's default configuration and a real 1 MiB queue:
 * exactly the limit is created and its job reaches the queue byte for byte; one byte more is 413; a form too large
 * to hold an allowed paste is refused before it is parsed, as a JSON body is.
 */
@RealServices
class LargestPasteIT {

    private static final int LIMIT = PasteProperties.MAX_CONTENT_BYTES_CAP;
    /** Lambda's limit of a synchronous invocation's request payload (the API Gateway event). */
    private static final int LAMBDA_REQUEST_PAYLOAD_LIMIT = 6_291_456;

    private static final String BOUNDARY = "------------------------d74496d66958873e";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-largest-it");

    /** How a client sends the paste; each in its most expensive encoding. */
    enum Body {
        /** the raw bytes */
        TEXT,
        /** every byte escaped as backslash-u (six bytes each), the largest JSON body of a paste */
        JSON,
        /** one {@code file} part, as {@code curl -F file=@…} sends it */
        MULTIPART,
        /** every byte percent-escaped (three bytes each) */
        URLENCODED
    }

    static Stream<Arguments> routesAndBodies() {
        return Stream.of("/pastes", "/")
                .flatMap(path -> Arrays.stream(Body.values()).map(body -> Arguments.of(path, body)));
    }

    @ParameterizedTest(name = "{1} to POST {0}")
    @MethodSource("routesAndBodies")
    void exactlyTheLimitIsCreatedAndItsJobQueued(String path, Body body) throws Exception {
        byte[] content = controlCharacters(LIMIT);

        HttpApi.Request request = request(path, body, content);
        if (body == Body.JSON) {
            // the worst-case JSON body, inside its API Gateway event, stays within what Lambda is invoked with
            int event = world.api.context().getBean(JsonMapper.class).writeValueAsBytes(request.event()).length;
            assertTrue(event <= LAMBDA_REQUEST_PAYLOAD_LIMIT, "event of " + event + " bytes");
        }
        HttpApi.Response response = world.api.send(request);

        // a form's answer is the URL line, 200 as 0x0.st and rustypaste answer; the API's own bodies get 201
        boolean form = body == Body.MULTIPART || body == Body.URLENCODED;
        assertEquals(form ? 200 : 201, response.status(), response.text());
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size());
        UploadJob job = world.api
                .context()
                .getBean(UploadJobCodec.class)
                .decode(jobs.get(0).body());
        assertArrayEquals(content, job.content());
        assertTrue(jobs.get(0).body().getBytes(StandardCharsets.UTF_8).length <= UploadJobCodec.SQS_MESSAGE_CEILING);
    }

    @ParameterizedTest(name = "{1} to POST {0}")
    @MethodSource("routesAndBodies")
    void oneByteMoreIsContentTooLarge(String path, Body body) {
        HttpApi.Response response = world.api.send(request(path, body, controlCharacters(LIMIT + 1)));

        assertEquals(413, response.status(), response.text());
        assertTrue(
                response.text()
                        .contains(
                                body == Body.TEXT || body == Body.JSON
                                        ? "\"CONTENT_TOO_LARGE\""
                                        : "larger than the limit of " + LIMIT + " bytes"),
                response.text());
        assertEquals(List.of(), world.drainQueue());
    }

    /**
     * A form body larger than any allowed paste's form is 413 however malformed the rest of it is: it is refused
     * before it is parsed (here the multipart body has no boundary line, the urlencoded one ends in a broken escape).
     */
    @ParameterizedTest
    @EnumSource(
            value = Body.class,
            names = {"MULTIPART", "URLENCODED"})
    void aFormTooLargeToHoldAnAllowedPasteIsRefusedBeforeItIsParsed(Body body) {
        int factor = body == Body.MULTIPART ? 1 : 3;
        byte[] tooLarge = new byte[LIMIT * factor + 64 * 1024];
        Arrays.fill(tooLarge, (byte) 'a');
        tooLarge[tooLarge.length - 1] = '%';

        HttpApi.Response response = world.api.send(post("/pastes", contentType(body), tooLarge));

        assertEquals(413, response.status(), response.text());
        assertEquals(List.of(), world.drainQueue());
    }

    /** The haste route takes a multipart form too ({@code data}): refused by its size before it is parsed as well. */
    @Test
    void aHasteFormTooLargeToHoldAnAllowedPasteIsRefusedBeforeItIsParsed() {
        byte[] tooLarge = new byte[LIMIT + 64 * 1024];
        Arrays.fill(tooLarge, (byte) 'a');

        HttpApi.Response response = world.api.send(post("/documents", contentType(Body.MULTIPART), tooLarge));

        assertEquals(413, response.status(), response.text());
        assertTrue(response.text().contains("\"CONTENT_TOO_LARGE\""), response.text());
        assertEquals(List.of(), world.drainQueue());
    }

    /** {@code length} bytes cycling through the control characters, NUL included: valid UTF-8, the costliest to escape. */
    private static byte[] controlCharacters(int length) {
        byte[] content = new byte[length];
        for (int i = 0; i < length; i++) {
            content[i] = (byte) (i % 32);
        }
        return content;
    }

    private static HttpApi.Request request(String path, Body body, byte[] content) {
        return switch (body) {
            case TEXT -> post(path, contentType(body), content);
            case JSON ->
                world.api
                        .fixture("create-paste-text")
                        .path(path)
                        .header("Content-Type", contentType(body))
                        .textBody(jsonEscapingEveryByte(content));
            case MULTIPART -> post(path, contentType(body), multipart(content));
            case URLENCODED -> post(path, contentType(body), urlEncoded(content));
        };
    }

    private static HttpApi.Request post(String path, String contentType, byte[] body) {
        return world.api
                .fixture("create-paste-text")
                .path(path)
                .header("Content-Type", contentType)
                .binaryBody(body);
    }

    private static String contentType(Body body) {
        return switch (body) {
            case TEXT -> "text/plain; charset=utf-8";
            case JSON -> "application/json";
            case MULTIPART -> "multipart/form-data; boundary=" + BOUNDARY;
            case URLENCODED -> "application/x-www-form-urlencoded";
        };
    }

    /** {@code content} is ASCII here, so each byte is one char. */
    private static String jsonEscapingEveryByte(byte[] content) {
        StringBuilder json = new StringBuilder(content.length * 6 + 16).append("{\"content\":\"");
        for (byte b : content) {
            json.append(String.format("\\u%04x", b));
        }
        return json.append("\"}").toString();
    }

    private static byte[] multipart(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 256);
        out.writeBytes(
                ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\n"
                                + "Content-Type: text/plain\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static byte[] urlEncoded(byte[] content) {
        StringBuilder form = new StringBuilder(content.length * 3 + 8).append("content=");
        for (byte b : content) {
            form.append('%').append(String.format("%02X", b & 0xff));
        }
        return form.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
