package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code PUT /{name}}, {@code curl -T}'s request (docs/design.md, "Large files: straight to S3"), through the real
 * handler against the real PostgreSQL and LocalStack: a one-file large paste named after the path and sized by the
 * Content-Length, answered 307 to a pre-signed PUT that signs that length (and the checksum and content type when the
 * client sends them, never when it does not: curl re-sends its own headers to S3); the paste's URL, code and token in
 * headers and a text/plain body; the limits (413), the blocklist (451) and bad requests (400) before any row.
 */
@RealServices
class UploadPasteIT {

    private static final int MAX_FILE = 1_000;

    @RegisterExtension
    static final CreateWorld world =
            new CreateWorld("create-upload-it", Map.of("pastebin.large-files.max-file-bytes", MAX_FILE));

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aPutIsAOneFileLargePasteAnswered307ToAPresignedPutOfItsLength() throws Exception {
        byte[] content = ("an upload " + UUID.randomUUID() + "\n").repeat(10).getBytes(StandardCharsets.UTF_8);

        // API Gateway hands the function the body it read; the function never looks at it
        HttpApi.Response response = world.api.send(put("/notes.log").binaryBody(content));

        assertEquals(307, response.status(), response.text());
        String code = response.header("Paste-Short-Code");
        String url = "https://abc123.execute-api.us-east-1.amazonaws.com/pastes/" + code;
        assertEquals(url, response.header("Paste-Url"));
        String token = response.header("Paste-Delete-Token");
        assertFalse(token == null || token.isBlank(), "the deletion token is in a header");
        assertEquals("no-store", response.header("Cache-Control"));
        assertTrue(response.header("Content-Type").startsWith("text/plain"), response.header("Content-Type"));
        assertTrue(response.text().startsWith(url + "\nPaste-Delete-Token: " + token + "\n"), response.text());

        assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status());
        assertEquals(content.length, world.row(code).sizeBytes());
        assertTrue(world.drainQueue().isEmpty(), "S3's notification of the file is the job");
        List<PasteFile> files = files(code);
        assertEquals(1, files.size());
        assertEquals("notes.log", files.getFirst().name());
        assertEquals(content.length, files.getFirst().sizeBytes());
        assertTrue(files.getFirst().sha256Undeclared(), "curl -T declares no SHA-256");
        assertEquals("application/octet-stream", files.getFirst().contentType());

        URI location = URI.create(response.header("Location"));
        assertTrue(location.getPath().endsWith("/staging/" + code + "/0"), location.toString());
        assertEquals(
                List.of("content-length", "host"),
                signedHeaders(location),
                "no Content-Type and no checksum signed when the client sent none");
        // the same PUT, without a Content-Type, is what S3 takes (curl -L re-sends it so)
        assertEquals(200, putTo(location, content, Map.of()).statusCode());
        assertEquals(new String(content, StandardCharsets.UTF_8), staged(code));
    }

    @Test
    void theChecksumAndContentTypeTheClientSendsAreSignedAndS3RefusesOtherBytes() throws Exception {
        byte[] content = ("checked " + UUID.randomUUID() + "\n").getBytes(StandardCharsets.UTF_8);
        String checksum = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(ContentHash.sha256Hex(content)));

        HttpApi.Response response = world.api.send(put("/report.txt")
                .header("content-type", "text/plain; charset=utf-8")
                .header("x-amz-checksum-sha256", checksum)
                .header("expire", "1h")
                .noBody()
                .header("content-length", Integer.toString(content.length)));

        assertEquals(307, response.status(), response.text());
        String code = response.header("Paste-Short-Code");
        PasteFile file = files(code).getFirst();
        assertEquals(ContentHash.sha256Hex(content), file.sha256());
        assertEquals("text/plain; charset=utf-8", file.contentType());
        assertTrue(world.row(code).expiresAt() != null, "the expire header sets the expiry");
        URI location = URI.create(response.header("Location"));
        assertEquals(
                List.of("content-length", "content-type", "host", "x-amz-checksum-sha256"), signedHeaders(location));
        Map<String, String> headers =
                Map.of("Content-Type", "text/plain; charset=utf-8", "x-amz-checksum-sha256", checksum);
        byte[] tampered = content.clone();
        tampered[0] = 'C';
        assertEquals(400, putTo(location, tampered, headers).statusCode(), "S3 checks the signed checksum");
        assertEquals(200, putTo(location, content, headers).statusCode());
    }

    @Test
    void aFileOverTheLimitIs413BeforeAnyRow() throws Exception {
        HttpApi.Response response =
                world.api.send(put("/big.iso").noBody().header("content-length", Integer.toString(MAX_FILE + 1)));

        assertEquals(413, response.status(), response.text());
        assertEquals("CONTENT_TOO_LARGE", world.json(response).get("code"));
        assertTrue(response.text().contains(Integer.toString(MAX_FILE)), response.text());
        assertEquals(null, response.header("Paste-Short-Code"), "no paste");
    }

    @Test
    void aBlocklistedChecksumIs451() throws Exception {
        byte[] blocked = ("known abuse " + UUID.randomUUID() + "\n").getBytes(StandardCharsets.UTF_8);
        String sha256 = ContentHash.sha256Hex(blocked);
        world.api
                .context()
                .getBean(ContentBlocklist.class)
                .add(sha256, "known abuse", "arn:aws:iam::000000000000:user/operator");

        HttpApi.Response response = world.api.send(put("/bad.bin")
                .header(
                        "x-amz-checksum-sha256",
                        Base64.getEncoder().encodeToString(HexFormat.of().parseHex(sha256)))
                .binaryBody(blocked));

        assertEquals(451, response.status(), response.text());
        assertEquals("CONTENT_BLOCKED", world.json(response).get("code"));
    }

    @Test
    void badRequestsAre400WithTheirCodes() throws Exception {
        Map<String, HttpApi.Request> cases = Map.of(
                "INVALID_FILES: no Content-Length (curl -T - sends chunked)",
                put("/stdin.txt").noBody().withoutHeader("content-length"),
                "INVALID_FILES: an empty file",
                put("/empty.txt").noBody(),
                "INVALID_FILES: a checksum that is not the base64 of 32 bytes",
                put("/a.txt")
                        .header("x-amz-checksum-sha256", "bm90IGEgaGFzaA==")
                        .binaryBody(new byte[] {1}),
                "INVALID_FILES: a content type that is no media type",
                put("/a.txt").header("content-type", "no type").binaryBody(new byte[] {1}),
                "INVALID_FILE_NAME: a name with a path separator",
                put("/a%5Cb.txt").binaryBody(new byte[] {1}),
                "INVALID_EXPIRY: an expire header that is no duration",
                put("/a.txt").header("expire", "soon").binaryBody(new byte[] {1}),
                "INVALID_IDEMPOTENCY_KEY: an Idempotency-Key, which a large create cannot replay",
                put("/a.txt").header("Idempotency-Key", "retry-1").binaryBody(new byte[] {1}));
        for (var c : cases.entrySet()) {
            HttpApi.Response response = world.api.send(c.getValue());
            assertEquals(400, response.status(), c.getKey() + " -> " + response.text());
            assertEquals(c.getKey().split(":")[0], world.json(response).get("code"), c.getKey());
            assertTrue(response.header("Content-Type").startsWith("application/json"), c.getKey());
        }
    }

    private static HttpApi.Request put(String path) {
        return world.api
                .fixture("create-paste-text")
                .withoutHeader("content-type")
                .path(path)
                .method("PUT");
    }

    private static List<PasteFile> files(String code) {
        return world.api.context().getBean(PasteFileRepository.class).findByShortCodeOrderByPosition(code);
    }

    /** The headers a pre-signed URL signs, from its X-Amz-SignedHeaders. */
    private static List<String> signedHeaders(URI url) {
        for (String parameter : url.getRawQuery().split("&")) {
            if (parameter.startsWith("X-Amz-SignedHeaders=")) {
                return List.of(URLDecoder.decode(parameter.substring(20), StandardCharsets.UTF_8)
                        .split(";"));
            }
        }
        throw new AssertionError("no X-Amz-SignedHeaders in " + url);
    }

    private static HttpResponse<String> putTo(URI url, byte[] content, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).PUT(HttpRequest.BodyPublishers.ofByteArray(content));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String staged(String code) {
        try (S3Client s3 = S3Client.create()) {
            String bucket = System.getenv().getOrDefault("PASTEBIN_STORAGE_BUCKET", "pastebin-pastes");
            return new String(
                    s3.getObjectAsBytes(b -> b.bucket(bucket).key("staging/" + code + "/0"))
                            .asByteArray(),
                    StandardCharsets.UTF_8);
        }
    }
}
