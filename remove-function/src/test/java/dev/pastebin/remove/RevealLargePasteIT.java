package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Burn after reading for a large paste (docs/design.md, "Reading once"): the reveal answers a short-lived pre-signed
 * GET of each file (JSON, or 303 to the one file of a paste that has one), burns the paste at once, so that every
 * later reveal is 404, and leaves its files, which the links read, for the sweeper to delete once the links expire
 * (SweepLargePastesIT).
 */
@RealServices
class RevealLargePasteIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static RemoveWorld world;

    @BeforeAll
    static void start() {
        world = new RemoveWorld("reveal-large-it");
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void theRevealAnswersALinkPerFileAndBurnsThePasteAtOnce() throws Exception {
        byte[] first = "the first secret file\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        byte[] second = "and a second\n".getBytes(StandardCharsets.UTF_8);
        String code = storedReadOnceLarge(first, second);

        HttpApi.Response revealed = world.api.send(world.reveal(code).header("Accept", "application/json"));

        assertEquals(200, revealed.status(), revealed.text());
        assertEquals("no-store", revealed.header("Cache-Control"));
        Map<String, Object> body = world.json(revealed);
        assertEquals(code, body.get("shortCode"));
        assertTrue(Instant.parse((String) body.get("linksExpireAt")).isAfter(Instant.now()), body.toString());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> files = (List<Map<String, Object>>) body.get("files");
        assertEquals(
                List.of("first.txt", "second.txt"),
                files.stream().map(f -> f.get("name")).toList());
        assertArrayEquals(first, download((String) files.get(0).get("url")));
        assertArrayEquals(second, download((String) files.get(1).get("url")));

        HttpApi.Response again = world.api.send(world.reveal(code).header("Accept", "application/json"));
        assertEquals(404, again.status(), again.text());
        assertEquals("PASTE_NOT_FOUND", world.json(again).get("code"));
        Paste burnt = world.row(code).orElseThrow();
        assertTrue(burnt.isExpiredAt(Instant.now()), "burnt: every route answers 404 from now on");
        assertTrue(
                world.s3
                                .listObjectsV2(b -> b.bucket(world.bucket).prefix("files/" + code + "/"))
                                .keyCount()
                        == 2,
                "the files stay for the links handed out; the sweeper deletes them once they expire");
    }

    @Test
    void aPlainRevealOfOneFileIsASeeOtherToItsLink() throws Exception {
        byte[] only = "just one file\n".getBytes(StandardCharsets.UTF_8);
        String code = storedReadOnceLarge(only);

        HttpApi.Response revealed = world.api.send(world.reveal(code));

        assertEquals(303, revealed.status(), revealed.text());
        assertEquals("no-store", revealed.header("Cache-Control"));
        assertArrayEquals(only, download(revealed.header("Location")));
        assertEquals(404, world.api.send(world.reveal(code)).status());
    }

    /** Many readers at the same moment: exactly one gets the links, the others 404. */
    @Test
    void concurrentRevealsGiveTheLinksToExactlyOneCaller() throws Exception {
        int readers = 8;
        String code = storedReadOnceLarge("contended\n".getBytes(StandardCharsets.UTF_8));
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpApi.Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < readers; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return world.api.send(world.reveal(code).header("Accept", "application/json"));
                }));
            }
            go.countDown();
            int linked = 0;
            for (Future<HttpApi.Response> answer : answers) {
                HttpApi.Response response = answer.get();
                if (response.status() == 200) {
                    linked++;
                } else {
                    assertEquals(404, response.status(), response.text());
                }
            }
            assertEquals(1, linked, "exactly one reader gets the links");
        } finally {
            pool.shutdownNow();
        }
    }

    /** A PROCESSED read-once large paste of these files, verified at their final keys, as the upload worker leaves it. */
    private static String storedReadOnceLarge(byte[]... contents) {
        String code = world.api.context().getBean(ShortCodes.class).next();
        long size = 0;
        for (byte[] content : contents) {
            size += content.length;
        }
        PasteRepository pastes = world.api.context().getBean(PasteRepository.class);
        pastes.save(Paste.inProgress(
                code,
                null,
                "f".repeat(64),
                (int) size,
                DeleteTokens.hashOf("token-" + code),
                null,
                true,
                PasteMetadata.NONE));
        PasteFileRepository files = world.api.context().getBean(PasteFileRepository.class);
        LargeFileStore store = world.api.context().getBean(LargeFileStore.class);
        String[] names = {"first.txt", "second.txt"};
        for (int n = 0; n < contents.length; n++) {
            byte[] content = contents[n];
            PasteFile file = files.save(
                    PasteFile.staged(code, n, names[n], content.length, ContentHash.sha256Hex(content), "text/plain"));
            world.s3.putObject(
                    b -> b.bucket(world.bucket).key(store.finalKey(file.fileId())), RequestBody.fromBytes(content));
            files.markVerified(file.fileId());
        }
        assertEquals(1, pastes.markProcessed(code, store.filesLocationOf(code).uri()));
        return code;
    }

    private static byte[] download(String url) throws Exception {
        HttpResponse<byte[]> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        return response.body();
    }
}
