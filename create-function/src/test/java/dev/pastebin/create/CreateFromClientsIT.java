package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The create conventions of existing command-line clients through the real handler (docs/using.md, "Use it from your
 * terminal"): a multipart {@code file} part ({@code curl -F file=@notes.txt}, rustypaste, 0x0.st) and a form
 * field ({@code pastebinit}, HTML forms), on {@code POST /pastes} and {@code POST /}. They answer 200 with the
 * paste's URL as one text/plain line and the deletion token in {@code X-Token}, or the usual 201 JSON to a client
 * that asks.
 */
@RealServices
class CreateFromClientsIT {

    private static final String BOUNDARY = "------------------------d74496d66958873e";
    private static final String MULTIPART = "multipart/form-data; boundary=" + BOUNDARY;
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String HOST_URL = "https://abc123.execute-api.us-east-1.amazonaws.com/pastes/";

    @RegisterExtension
    static final CreateWorld world = new CreateWorld("create-clients-it");

    /** A paste with bytes a form or a lenient decoder would mangle: CRLF, a tab, '+', '%', '&', non-ASCII. */
    private static final byte[] CONTENT = "line one\r\n\ta+b=c & 100% ✓\n".getBytes(StandardCharsets.UTF_8);

    private static HttpApi.Request post(String path, String contentType, byte[] body) {
        return world.api
                .fixture("create-paste-text")
                .path(path)
                .header("Content-Type", contentType)
                .binaryBody(body);
    }

    /** Parts as curl -F sends them; each is {name, filename or null, content}. */
    private static byte[] multipart(Object[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object[] part : parts) {
            out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + part[0] + "\""
                            + (part[1] == null ? "" : "; filename=\"" + part[1] + "\"\r\nContent-Type: text/plain")
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.writeBytes(
                    part[2] instanceof byte[] bytes ? bytes : ((String) part[2]).getBytes(StandardCharsets.UTF_8));
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static byte[] form(String... pairs) {
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            form.append(form.isEmpty() ? "" : "&")
                    .append(pairs[i])
                    .append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return form.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The URL line's paste: its row holds the content, its token deletes it, exactly one job carries its bytes. */
    private static Paste assertCreatedAsPlainUrl(HttpApi.Response response) throws Exception {
        // 200, as 0x0.st and rustypaste answer: rustypaste's client takes nothing else
        assertEquals(200, response.status(), response.text());
        assertEquals("text/plain; charset=utf-8", response.header("Content-Type"));
        String text = response.text();
        assertTrue(text.matches("\\Q" + HOST_URL + "\\E[0-9A-Za-z]{11}\n"), "one URL line: " + text);
        String code = text.substring(HOST_URL.length(), text.length() - 1);
        assertEquals("/pastes/" + code, response.header("Location"));
        assertEquals("no-store", response.header("Cache-Control"));
        Paste row = world.row(code);
        assertEquals(PasteStatus.IN_PROGRESS, row.status());
        assertEquals(ContentHash.sha256Hex(CONTENT), row.contentSha256());
        assertEquals(DeleteTokens.hashOf(response.header("X-Token")), row.deleteTokenSha256(), "X-Token deletes it");
        List<Message> jobs = world.drainQueue();
        assertEquals(1, jobs.size(), "exactly one upload job");
        UploadJob job = world.api
                .context()
                .getBean(UploadJobCodec.class)
                .decode(jobs.get(0).body());
        assertEquals(code, job.shortCode());
        assertArrayEquals(CONTENT, job.content());
        return row;
    }

    @ParameterizedTest
    @ValueSource(strings = {"/pastes", "/"})
    void aFilePartAsCurlSendsItAnswersTheUrlLine(String path) throws Exception {
        Paste row = assertCreatedAsPlainUrl(
                world.api.send(post(path, MULTIPART, multipart(new Object[] {"file", "notes.txt", CONTENT}))));

        assertNull(row.expiresAt());
        assertEquals(false, row.readOnce());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/pastes", "/"})
    void aFormContentFieldAsPastebinitSendsItAnswersTheUrlLine(String path) throws Exception {
        String text = new String(CONTENT, StandardCharsets.UTF_8);
        assertCreatedAsPlainUrl(
                world.api.send(post(path, FORM, form("poster", "me", "content", text, "format", "text"))));
    }

    /** API Gateway passes a multipart body base64-encoded and a form as text: both read the same. */
    @Test
    void aFormPassedAsTextReadsTheSame() throws Exception {
        String body =
                new String(form("content", new String(CONTENT, StandardCharsets.UTF_8)), StandardCharsets.US_ASCII);
        assertCreatedAsPlainUrl(world.api.send(world.api
                .fixture("create-paste-text")
                .header("Content-Type", FORM)
                .textBody(body)));
    }

    @Test
    void rustypastesExpireHeaderAndOneshotPartMapToExpiryAndReadOnce() throws Exception {
        Instant before = Instant.now();
        Paste row = assertCreatedAsPlainUrl(world.api.send(
                post("/", MULTIPART, multipart(new Object[] {"oneshot", "notes.txt", CONTENT}))
                        .header("expire", "10min")));

        assertTrue(row.readOnce(), "oneshot: read once");
        assertNotNull(row.expiresAt());
        long seconds = Duration.between(before, row.expiresAt()).toSeconds();
        assertTrue(seconds >= 595 && seconds <= 605, "10 minutes: " + seconds);
    }

    @Test
    void zeroXzeroExpiresFieldIsInHours() throws Exception {
        Instant before = Instant.now();
        Paste row = assertCreatedAsPlainUrl(world.api.send(
                post("/", MULTIPART, multipart(new Object[] {"file", "notes.txt", CONTENT}, new Object[] {
                    "expires", null, "24"
                }))));

        long seconds = Duration.between(before, row.expiresAt()).toSeconds();
        assertTrue(seconds >= 86_395 && seconds <= 86_405, "24 hours: " + seconds);
    }

    @Test
    void aClientAskingForJsonGetsTheUsualCreatedBody() throws Exception {
        HttpApi.Response response =
                world.api.send(post("/", MULTIPART, multipart(new Object[] {"file", "notes.txt", CONTENT}))
                        .header("Accept", "application/json"));

        assertEquals(201, response.status(), response.text());
        assertTrue(response.header("Content-Type").startsWith("application/json"));
        Map<String, Object> body = world.json(response);
        assertEquals("IN_PROGRESS", body.get("status"));
        assertEquals(body.get("deleteToken"), response.header("X-Token"));
        assertEquals(1, world.drainQueue().size());
    }

    @Test
    void theIdempotencyKeyReplaysAFormCreate() throws Exception {
        byte[] body = multipart(new Object[] {"file", "notes.txt", CONTENT});
        // a key of this run's own: keys live 24 h in the database every run shares
        String key = "form-replay-" + UUID.randomUUID();
        HttpApi.Response first = world.api.send(post("/", MULTIPART, body).header("Idempotency-Key", key));
        HttpApi.Response again = world.api.send(post("/", MULTIPART, body).header("Idempotency-Key", key));

        assertEquals(200, first.status(), first.text());
        assertEquals(first.text(), again.text(), "the same paste");
        assertEquals("true", again.header("Idempotent-Replayed"));
    }

    /** Each refusal is one text/plain line for these clients (they print the body), and nothing is created. */
    @Test
    void badFormsAreRefusedWithAPlainErrorLine() throws Exception {
        record Case(HttpApi.Request request, int status, String says) {}
        List<Case> cases = List.of(
                new Case(post("/", MULTIPART, multipart(new Object[] {"text", "notes.txt", CONTENT})), 400, "file"),
                new Case(
                        post("/", MULTIPART, multipart(new Object[] {"file", "empty.txt", new byte[0]})), 400, "empty"),
                new Case(
                        post("/", MULTIPART, multipart(new Object[] {"file", "bad.bin", new byte[] {(byte) 0xC3, 0x28}
                        })),
                        400,
                        "UTF-8"),
                new Case(
                        post("/", MULTIPART, "not a multipart body".getBytes(StandardCharsets.UTF_8)),
                        400,
                        "multipart"),
                new Case(
                        post("/", "multipart/form-data", multipart(new Object[] {"file", "notes.txt", CONTENT})),
                        400,
                        "boundary"),
                new Case(post("/", FORM, form("title", "no content here")), 400, "content"),
                new Case(post("/", FORM, "content=%E2%28".getBytes(StandardCharsets.US_ASCII)), 400, "UTF-8"),
                new Case(
                        post("/", MULTIPART, multipart(new Object[] {"file", "notes.txt", CONTENT}))
                                .header("expire", "soon"),
                        400,
                        "expire"),
                new Case(
                        post("/", MULTIPART, multipart(new Object[] {"file", "notes.txt", CONTENT}, new Object[] {
                            "expires", null, "-1"
                        })),
                        400,
                        "expires"));
        for (Case c : cases) {
            HttpApi.Response response = world.api.send(c.request());
            assertEquals(c.status(), response.status(), response.text());
            assertEquals("text/plain; charset=utf-8", response.header("Content-Type"), response.text());
            assertTrue(
                    response.text().endsWith("\n")
                            && response.text().indexOf('\n') == response.text().length() - 1,
                    "one line: " + response.text());
            assertTrue(response.text().contains(c.says()), c.says() + " in: " + response.text());
        }
        assertEquals(0, world.drainQueue().size(), "nothing created");
    }
}
