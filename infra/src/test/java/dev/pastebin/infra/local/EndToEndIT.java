package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end test of the local run ({@link LocalSystem}: the real template and function artifacts, its own
 * queue and bucket). POST a paste, read it IN_PROGRESS, then poll until the upload function has stored it and
 * the read returns the same bytes.
 */
@RealServices
class EndToEndIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static LocalRuntimeProcess runtime;

    @BeforeAll
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.shared();
    }

    private static HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return TestSupport.sendHonouringRetryAfter(HTTP, request, HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aPastePostedThroughTheLocalApiIsUploadedAndReadBackByteForByte() throws Exception {
        byte[] content = "Grüße, 世界! 😀\r\n\tcolumns\tand CRLF\r\n".getBytes(StandardCharsets.UTF_8);
        var created = send(HttpRequest.newBuilder(runtime.uri("/pastes"))
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(content))
                .build());
        assertEquals(201, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
        String location = created.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("/pastes/"), location);
        URI paste = runtime.uri(location);

        var first = send(HttpRequest.newBuilder(paste).GET().build());
        // Without a batching window the upload may already be done: 200, or 202 while it is in progress.
        assertTrue(
                first.statusCode() == 200 || first.statusCode() == 202,
                new String(first.body(), StandardCharsets.UTF_8));
        if (first.statusCode() == 202) {
            assertTrue(new String(first.body(), StandardCharsets.UTF_8).contains("IN_PROGRESS"));
        }

        List<Integer> statuses = new ArrayList<>();
        HttpResponse<byte[]> read = first;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (read.statusCode() == 202 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            read = send(HttpRequest.newBuilder(paste).GET().build());
            statuses.add(read.statusCode());
        }
        assertEquals(200, read.statusCode(), "statuses while polling: " + statuses + "\n" + runtime.output());
        assertArrayEquals(content, read.body());
    }

    /** The HTTP API passes bytes that are not UTF-8 unchanged (base64), so the function can refuse them. */
    @Test
    void aTextBodyThatIsNotUtf8IsRefusedByTheCreateFunction() throws Exception {
        byte[] invalid = {(byte) 0xff, (byte) 0xfe, ' ', 'b', 'a', 'd'};
        var created = send(HttpRequest.newBuilder(runtime.uri("/pastes"))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofByteArray(invalid))
                .build());
        String body = new String(created.body(), StandardCharsets.UTF_8);
        assertEquals(400, created.statusCode(), body);
        assertTrue(body.contains("\"INVALID_UTF8\""), body);
    }
}
