package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.local.Json;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Pastes of any size up to the default limit (docs/design.md, "Paste size") and any encoding (ASCII, two- to four-byte
 * UTF-8, control characters and NUL, CRLF) through the whole local system ({@link LocalRuntimeProcess}: the real
 * template and function artifacts, PostgreSQL, LocalStack's 1 MiB queue and S3): created on each create route
 * form, stored by the upload function, and read back byte for byte raw ({@code curl URL}), as JSON (what the web
 * page reads), and once revealed as JSON (what the web page does for a read-once paste). Few tries: each moves up to
 * 768 KiB through every function; the exact limit and one byte more on every route are {@code LargestPasteIT}'s.
 */
class LargePastesIT {

    private static final int LIMIT = PasteProperties.MAX_CONTENT_BYTES_CAP;
    private static final Duration STORED_WITHIN = Duration.ofSeconds(60);
    private static final String BOUNDARY = "------------------------LargePastesIT";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static LocalRuntimeProcess runtime;

    /** How the paste is posted: the create function's body forms. */
    enum Form {
        TEXT,
        JSON,
        MULTIPART,
        URLENCODED
    }

    @BeforeContainer
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.shared();
    }

    @Property(tries = 8, shrinking = ShrinkingMode.OFF)
    void anyPasteUpToTheLimitIsStoredAndReadBackByteForByte(@ForAll("texts") String text, @ForAll Form form)
            throws Exception {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        assertTrue(content.length <= LIMIT);

        URI paste = create(form, text, content, false);
        assertArrayEquals(content, stored(paste, "*/*").body(), "raw read");
        JsonNode document = Json.MAPPER.readTree(send(HttpRequest.newBuilder(paste)
                        .header("Accept", "application/json")
                        .GET()
                        .build())
                .body());
        assertEquals(text, document.get("content").asText(), "JSON read");

        URI once = create(Form.TEXT, text, content, true);
        stored(once, "application/json");
        HttpResponse<byte[]> revealed = send(HttpRequest.newBuilder(URI.create(once + "/reveal"))
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        assertEquals(200, revealed.statusCode(), new String(revealed.body(), StandardCharsets.UTF_8));
        assertEquals(text, Json.MAPPER.readTree(revealed.body()).get("content").asText(), "JSON reveal");
    }

    /**
     * The worst case for Lambda's 6 MB payloads, which the local runtime enforces as Lambda does: the largest paste
     * of nothing but control characters, which JSON escapes to six bytes each, posted as JSON (its event) and read
     * and revealed as JSON (their responses).
     */
    @Example
    void theLargestPasteOfControlCharactersFitsLambdasPayloadsAsJson() throws Exception {
        StringBuilder controls = new StringBuilder(LIMIT);
        for (int i = 0; i < LIMIT; i++) {
            controls.append((char) (i % 32));
        }
        anyPasteUpToTheLimitIsStoredAndReadBackByteForByte(controls.toString(), Form.JSON);
    }

    /**
     * A pattern of characters from every encoding width, repeated to a size anywhere up to the limit, with the
     * limit itself and sizes near it drawn often; padded with ASCII to exactly that many bytes.
     */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> unit = Arbitraries.of(
                "a", "Z", " ", "\t", "\r\n", "\n", "\u0000", "\u0001", "\u001f", "\u007f", "\"", "\\", "%", "+", "&",
                "é", "ß", "Ж", "€", "世", "\u0301", "😀", "🧪");
        Arbitrary<String> pattern = unit.list().ofMinSize(1).ofMaxSize(16).map(parts -> String.join("", parts));
        Arbitrary<Integer> size = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.just(LIMIT)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(LIMIT - 64, LIMIT)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(1, LIMIT)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(1, 64)));
        return Combinators.combine(pattern, size).as(LargePastesIT::fill);
    }

    /** {@code pattern} repeated as often as it fits {@code bytes}, then ASCII to exactly {@code bytes}. */
    private static String fill(String pattern, int bytes) {
        int width = pattern.getBytes(StandardCharsets.UTF_8).length;
        String repeated = pattern.repeat(bytes / width);
        return repeated + "x".repeat(bytes - repeated.getBytes(StandardCharsets.UTF_8).length);
    }

    /** POSTs the paste in {@code form} and returns its URL, from the answer's Location. */
    private static URI create(Form form, String text, byte[] content, boolean readOnce) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(runtime.uri(readOnce ? "/pastes?readOnce=true" : "/pastes"));
        byte[] body = switch (form) {
            case TEXT -> content;
            case JSON -> Json.MAPPER.writeValueAsBytes(Json.object().put("content", text));
            case MULTIPART -> multipart(content);
            case URLENCODED ->
                ("content=" + java.net.URLEncoder.encode(text, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.US_ASCII);
        };
        request.header(
                "Content-Type",
                switch (form) {
                    case TEXT -> "text/plain; charset=utf-8";
                    case JSON -> "application/json";
                    case MULTIPART -> "multipart/form-data; boundary=" + BOUNDARY;
                    case URLENCODED -> "application/x-www-form-urlencoded";
                });
        HttpResponse<byte[]> created =
                send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        // a form's answer is its URL line, 200 as 0x0.st and rustypaste answer; the API's own bodies get 201
        boolean isForm = form == Form.MULTIPART || form == Form.URLENCODED;
        assertEquals(
                isForm ? 200 : 201,
                created.statusCode(),
                form + " (" + content.length + " bytes): " + new String(created.body(), StandardCharsets.UTF_8));
        return runtime.uri(created.headers().firstValue("Location").orElseThrow());
    }

    /** GETs the paste until it is stored (202 with Retry-After until then), and returns that answer. */
    private static HttpResponse<byte[]> stored(URI paste, String accept) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        while (true) {
            HttpResponse<byte[]> read = send(
                    HttpRequest.newBuilder(paste).header("Accept", accept).GET().build());
            statuses.add(read.statusCode());
            if (read.statusCode() != 202 || System.nanoTime() > deadline) {
                assertEquals(200, read.statusCode(), "statuses while polling: " + statuses + "\n" + runtime.output());
                return read;
            }
            Thread.sleep(250);
        }
    }

    private static byte[] multipart(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 256);
        out.writeBytes(
                ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"paste.txt\"\r\n"
                                + "Content-Type: text/plain\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }
}
