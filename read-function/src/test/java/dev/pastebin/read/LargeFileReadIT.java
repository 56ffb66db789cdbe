package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A large paste's read (docs/design.md, "Large files: straight to S3"): 307 to a short-lived pre-signed GET of the
 * file's final key, which S3 (LocalStack) answers with the exact bytes, the file's Content-Type and its name as an
 * attachment, and a Range with 206; IN_PROGRESS and missing answer as a small paste's.
 */
@RealServices
class LargeFileReadIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("read-large-it");

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aProcessedLargeFileIsARedirectToItsBytesWithItsTypeAndNameAndRangesWork() throws Exception {
        byte[] first = "0123456789".repeat(100).getBytes(StandardCharsets.UTF_8);
        byte[] second = "the second file".getBytes(StandardCharsets.UTF_8);
        Paste paste = largePaste(first, second);
        String code = paste.shortCode();

        HttpApi.Response response = world.api.send(read(code));
        assertEquals(307, response.status(), response.text());
        assertEquals("no-store", response.header("Cache-Control"));
        HttpResponse<byte[]> followed = get(response.header("Location"), null);
        assertEquals(200, followed.statusCode());
        assertArrayEquals(first, followed.body());
        assertEquals(
                "application/x-data",
                followed.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(
                followed.headers()
                        .firstValue("Content-Disposition")
                        .orElseThrow()
                        .contains("first%20file.bin"),
                followed.headers().toString());

        HttpResponse<byte[]> range = get(response.header("Location"), "bytes=10-19");
        assertEquals(206, range.statusCode());
        assertArrayEquals(Arrays.copyOfRange(first, 10, 20), range.body());

        HttpApi.Response secondFile = world.api.send(read(code).query("file", "1"));
        assertEquals(307, secondFile.status(), secondFile.text());
        assertArrayEquals(second, get(secondFile.header("Location"), null).body());

        assertEquals(404, world.api.send(read(code).query("file", "2")).status());
    }

    /**
     * The JSON view of a large paste (what the web page reads) lists its files, each with the address of its read,
     * instead of redirecting to the first one; {@code ?file=} still redirects whatever Accept says.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theJsonViewOfALargePasteListsItsFilesAndFileStillRedirects() throws Exception {
        byte[] first = "0123456789".repeat(100).getBytes(StandardCharsets.UTF_8);
        byte[] second = "the second file".getBytes(StandardCharsets.UTF_8);
        String code = largePaste(first, second).shortCode();

        HttpApi.Response response = world.api.send(read(code).header("Accept", "application/json"));
        assertEquals(200, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"));
        Map<String, Object> document = world.json(response);
        assertEquals(code, document.get("shortCode"));
        assertEquals(first.length + second.length, ((Number) document.get("sizeBytes")).intValue());
        List<Map<String, Object>> files = (List<Map<String, Object>>) document.get("files");
        assertEquals(2, files.size(), response.text());
        assertEquals("first file.bin", files.get(0).get("name"));
        assertEquals(first.length, ((Number) files.get(0).get("sizeBytes")).intValue());
        assertEquals("application/x-data", files.get(0).get("contentType"));
        assertEquals("/pastes/" + code + "?file=0", files.get(0).get("url"));
        assertEquals("second.txt", files.get(1).get("name"));
        assertEquals(second.length, ((Number) files.get(1).get("sizeBytes")).intValue());
        assertEquals("/pastes/" + code + "?file=1", files.get(1).get("url"));

        HttpApi.Response file = world.api.send(read(code).query("file", "1").header("Accept", "application/json"));
        assertEquals(307, file.status(), file.text());
        assertArrayEquals(second, get(file.header("Location"), null).body());

        // the page's link to a file, followed by a browser (an Accept that prefers HTML): the file, not the page
        HttpApi.Response clicked = world.api.send(read(code)
                .query("file", "0")
                .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
        assertEquals(307, clicked.status(), clicked.text());
        assertArrayEquals(first, get(clicked.header("Location"), null).body());
    }

    @Test
    void anInProgressLargePasteIs202AndAnUnknownOne404AsASmallPastesAre() {
        String code = world.api.context().getBean(ShortCodes.class).next();
        world.api.context().getBean(PasteRepository.class).save(TestPastes.inProgress(code, null, "c".repeat(64), 10));
        world.api
                .context()
                .getBean(PasteFileRepository.class)
                .save(PasteFile.staged(code, 0, "f.bin", 10, "d".repeat(64), "application/octet-stream"));

        assertEquals(202, world.api.send(read(code)).status());
        assertEquals(
                404,
                world.api
                        .send(read(world.api.context().getBean(ShortCodes.class).next()))
                        .status());
    }

    /** What the create and the upload worker leave: the rows, the verified files at their final keys, PROCESSED. */
    private static Paste largePaste(byte[] first, byte[] second) {
        String code = world.api.context().getBean(ShortCodes.class).next();
        PasteRepository pastes = world.api.context().getBean(PasteRepository.class);
        PasteFileRepository files = world.api.context().getBean(PasteFileRepository.class);
        LargeFileStore store = world.api.context().getBean(LargeFileStore.class);
        pastes.save(TestPastes.inProgress(code, null, "e".repeat(64), first.length + second.length));
        byte[][] contents = {first, second};
        String[] names = {"first file.bin", "second.txt"};
        for (int i = 0; i < 2; i++) {
            byte[] content = contents[i];
            PasteFile file = files.save(PasteFile.staged(
                    code,
                    i,
                    names[i],
                    content.length,
                    ContentHash.sha256Hex(content),
                    i == 0 ? "application/x-data" : "text/plain"));
            world.s3.putObject(
                    b -> b.bucket(world.bucket).key(store.finalKey(file.fileId())), RequestBody.fromBytes(content));
            files.markVerified(file.fileId());
        }
        assertEquals(1, pastes.markProcessed(code, store.filesLocationOf(code).uri()));
        return pastes.findById(code).orElseThrow();
    }

    private static HttpApi.Request read(String code) {
        return world.api.fixture("read-paste").path("/pastes/" + code);
    }

    private static HttpResponse<byte[]> get(String url, String range) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (range != null) {
            request.header("Range", range);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
