package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A large create (docs/design.md, "Large files: straight to S3"): the declared files are checked against the limits
 * before any byte moves, the row is IN_PROGRESS with a STAGED row per file and no job, and each pre-signed PUT the
 * 201 answers takes exactly the declared bytes into S3's staging prefix (LocalStack), and refuses others.
 */
@RealServices
class LargePasteCreateIT {

    private static final int MAX_FILE = 1_000;

    @RegisterExtension
    static final CreateWorld world = new CreateWorld(
            "create-large-it",
            Map.of(
                    "pastebin.large-files.max-file-bytes", MAX_FILE,
                    "pastebin.large-files.max-files", 3,
                    "pastebin.large-files.max-total-bytes", 2_000));

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aCreateDeclaringFilesAnswersAPresignedPutPerFileThatTakesExactlyTheDeclaredBytes() throws Exception {
        byte[] first = "first file\n".getBytes(StandardCharsets.UTF_8);
        byte[] second = "second, larger file\n".repeat(20).getBytes(StandardCharsets.UTF_8);

        HttpApi.Response response =
                world.api.send(create("{\"files\":[" + file("notes.txt", first, "text/plain; charset=utf-8") + ","
                        + file("data.bin", second, null) + "],\"expiresIn\":3600}"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        String code = (String) body.get("shortCode");
        assertEquals("IN_PROGRESS", body.get("status"));
        assertEquals("/pastes/" + code, response.header("Location"));
        assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status());
        assertEquals(first.length + second.length, world.row(code).sizeBytes());
        assertTrue(world.drainQueue().isEmpty(), "a large create sends no job: S3's notification is the job");
        List<PasteFile> files =
                world.api.context().getBean(PasteFileRepository.class).findByShortCodeOrderByPosition(code);
        assertEquals(
                List.of("notes.txt", "data.bin"),
                files.stream().map(PasteFile::name).toList());
        assertEquals(
                List.of(PasteFile.STAGED, PasteFile.STAGED),
                files.stream().map(PasteFile::state).toList());
        assertEquals("application/octet-stream", files.get(1).contentType());

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> uploads = (List<Map<String, Object>>) body.get("uploads");
        assertEquals(2, uploads.size());
        assertEquals("notes.txt", uploads.get(0).get("name"));
        assertEquals("PUT", uploads.get(0).get("method"));
        assertTrue(((String) uploads.get(0).get("url")).contains("staging/" + code + "/0"), uploads.toString());
        @SuppressWarnings("unchecked")
        Map<String, String> headers = (Map<String, String>) uploads.get(0).get("headers");
        assertTrue(
                headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase("x-amz-checksum-sha256")),
                "the declared SHA-256 is signed: " + headers);

        // other bytes of the same size: S3 refuses them against the signed checksum
        byte[] tampered = first.clone();
        tampered[0] = 'F';
        assertEquals(400, put(uploads.get(0), tampered).statusCode());
        // the declared bytes are taken, into the staging prefix
        assertEquals(200, put(uploads.get(0), first).statusCode());
        assertEquals(200, put(uploads.get(1), second).statusCode());
        try (S3Client s3 = S3Client.create()) {
            String bucket = System.getenv().getOrDefault("PASTEBIN_STORAGE_BUCKET", "pastebin-pastes");
            byte[] staged = s3.getObjectAsBytes(b -> b.bucket(bucket).key("staging/" + code + "/1"))
                    .asByteArray();
            assertEquals(new String(second, StandardCharsets.UTF_8), new String(staged, StandardCharsets.UTF_8));
        }
    }

    /** Read once too (docs/design.md, "Reading once"): its reveal burns it and answers links to its files. */
    @Test
    void aLargePasteCanBeReadOnce() throws Exception {
        byte[] only = "a secret file\n".getBytes(StandardCharsets.UTF_8);

        HttpApi.Response response =
                world.api.send(create("{\"files\":[" + file("secret.txt", only, null) + "],\"readOnce\":true}"));

        assertEquals(201, response.status(), response.text());
        Map<String, Object> body = world.json(response);
        assertEquals(true, body.get("readOnce"));
        assertTrue(world.row((String) body.get("shortCode")).readOnce());
    }

    @Test
    void aFileWhoseDeclaredSha256IsBlocklistedIsRefusedWith451AndNothingIsCreated() throws Exception {
        byte[] blocked = ("known abuse " + UUID.randomUUID() + "\n").getBytes(StandardCharsets.UTF_8);
        world.api
                .context()
                .getBean(ContentBlocklist.class)
                .add(ContentHash.sha256Hex(blocked), "known abuse", "arn:aws:iam::000000000000:user/operator");

        HttpApi.Response refused =
                world.api.send(create("{\"files\":[" + file("ok.txt", "fine\n".getBytes(StandardCharsets.UTF_8), null)
                        + "," + file("bad.bin", blocked, null) + "]}"));

        assertEquals(451, refused.status(), refused.text());
        assertEquals("CONTENT_BLOCKED", world.json(refused).get("code"));
    }

    @Test
    void aFileOverTheLimitIs413NamingTheLimitBeforeAnyUpload() throws Exception {
        HttpApi.Response response = world.api.send(create("{\"files\":[{\"name\":\"big.iso\",\"size\":" + (MAX_FILE + 1)
                + ",\"sha256\":\"" + "a".repeat(64) + "\"}]}"));

        assertEquals(413, response.status(), response.text());
        assertEquals("CONTENT_TOO_LARGE", world.json(response).get("code"));
        assertTrue(response.text().contains(Integer.toString(MAX_FILE)), response.text());
    }

    @Test
    void tooManyFilesOrTooManyBytesTogetherAre413() throws Exception {
        String one = "{\"name\":\"a\",\"size\":900,\"sha256\":\"" + "b".repeat(64) + "\"}";
        HttpApi.Response tooMany = world.api.send(create("{\"files\":[" + String.join(",", one, one, one, one) + "]}"));
        assertEquals(413, tooMany.status(), tooMany.text());
        assertTrue(tooMany.text().contains("at most 3 files"), tooMany.text());

        HttpApi.Response tooLarge = world.api.send(create("{\"files\":[" + String.join(",", one, one, one) + "]}"));
        assertEquals(413, tooLarge.status(), tooLarge.text());
        assertTrue(tooLarge.text().contains("2000 bytes a paste"), tooLarge.text());
    }

    @Test
    void badDeclarationsAre400WithTheirCodes() throws Exception {
        String sha = "c".repeat(64);
        Map<String, String> cases = Map.of(
                "{\"files\":[]}",
                "INVALID_FILES",
                "{\"files\":[{\"name\":\"a\",\"size\":0,\"sha256\":\"" + sha + "\"}]}",
                "INVALID_FILES",
                "{\"files\":[{\"name\":\"a\",\"size\":1.5,\"sha256\":\"" + sha + "\"}]}",
                "INVALID_FILES",
                "{\"files\":[{\"name\":\"a\",\"size\":10,\"sha256\":\"xyz\"}]}",
                "INVALID_FILES",
                "{\"files\":[{\"name\":\"a\",\"size\":10,\"sha256\":\"" + sha + "\",\"contentType\":\"no type\"}]}",
                "INVALID_FILES",
                "{\"files\":[{\"name\":\"../etc/passwd\",\"size\":10,\"sha256\":\"" + sha + "\"}]}",
                "INVALID_FILE_NAME",
                "{\"content\":\"x\",\"files\":[{\"name\":\"a\",\"size\":10,\"sha256\":\"" + sha + "\"}]}",
                "INVALID_FILES",
                "{\"readOnce\":\"yes\",\"files\":[{\"name\":\"a\",\"size\":10,\"sha256\":\"" + sha + "\"}]}",
                "INVALID_READ_ONCE");
        for (var c : cases.entrySet()) {
            HttpApi.Response response = world.api.send(create(c.getKey()));
            assertEquals(400, response.status(), c.getKey() + " -> " + response.text());
            assertEquals(c.getValue(), world.json(response).get("code"), c.getKey());
        }
    }

    private static HttpApi.Request create(String json) {
        return world.api.fixture("create-paste-json").textBody(json);
    }

    private static String file(String name, byte[] content, String contentType) {
        return "{\"name\":\"" + name + "\",\"size\":" + content.length + ",\"sha256\":\""
                + ContentHash.sha256Hex(content) + "\""
                + (contentType == null ? "" : ",\"contentType\":\"" + contentType + "\"") + "}";
    }

    @SuppressWarnings("unchecked")
    private static HttpResponse<String> put(Map<String, Object> upload, byte[] content) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create((String) upload.get("url")))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
        ((Map<String, String>) upload.get("headers")).forEach((name, value) -> {
            // the HTTP client sets Content-Length from the body itself (a restricted header)
            if (!name.equalsIgnoreCase("content-length")) {
                request.header(name, value);
            }
        });
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
