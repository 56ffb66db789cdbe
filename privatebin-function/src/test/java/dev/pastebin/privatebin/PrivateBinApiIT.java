package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.create.CreateCredential;
import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.api.create.UploadGroup;
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
import dev.pastebin.core.support.PrivateBinClientCrypto;
import dev.pastebin.core.support.RealServices;
import io.micronaut.core.annotation.Nullable;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PrivateBin's API at /pb/ against the real database and S3 (LocalStack): create, read, burn after reading,
 * delete, the JSON-LD context, a read while the paste is being stored, and every edge case answered in the
 * protocol's way, never with a 5xx.
 */
@RealServices
class PrivateBinApiIT {

    /** Small enough to post an oversized paste cheaply; the ciphertext's limit is this minus the envelope's room. */
    private static final int MAX_CONTENT_BYTES = 65_536;

    private static PrivateBinWorld world;

    @BeforeAll
    static void start() {
        // a connection per concurrent reader, open already, as warm Lambda instances would have (RevealPasteIT);
        // a read of a paste being stored waits long enough for the test to store it
        world = new PrivateBinWorld(
                "pb-it",
                Map.of(
                        "datasources.default.maximum-pool-size", 20,
                        "datasources.default.minimum-idle", 20,
                        "datasources.default.connection-timeout", 30_000,
                        "pastebin.paste.max-content-bytes", MAX_CONTENT_BYTES,
                        "pastebin.privatebin.pending-wait", "60s"));
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void theJsonLdContextTellsClientsToSendFormatTwo() throws Exception {
        HttpApi.Response context = world.get("jsonld=paste");

        assertEquals(200, context.status(), context.text());
        assertEquals("application/ld+json", context.header("Content-Type"));
        @SuppressWarnings("unchecked")
        Map<String, Object> v =
                (Map<String, Object>) ((Map<String, Object>) world.json(context).get("@context")).get("v");
        assertEquals(2, v.get("@value"));
        assertTrue(context.text().contains("\"/pb/?jsonld=types#\""), context.text());
        assertEquals("{}", world.get("jsonld=comment").text());
    }

    /**
     * Whatever Content-Type each client sends (pbincli none, the Go client a form's, a browser JSON), the paste comes
     * back with adata byte for byte: its odd spacing and \\u escape still decrypt (GCM checks adata as additional data).
     */
    @Test
    void aPasteComesBackWithItsAdataByteForByteWhateverTheContentType() throws Exception {
        String[] contentTypes = {null, "application/x-www-form-urlencoded", "application/json", "text/plain"};
        for (String contentType : contentTypes) {
            PrivateBinClientCrypto.Sealed sealed = PrivateBinClientCrypto.seal(
                    "hello from " + contentType,
                    "[ [\"%1$s\", \"%2$s\", %3$d, 256, 128, \"aes\", \"gcm\", \"zlib\"],\n \"plain\\u0074ext\", 0, 0 ]",
                    "1day",
                    "");
            HttpApi.Response posted = world.post(sealed.body(), contentType);
            assertEquals(200, posted.status(), posted.text());
            Map<String, Object> created = world.json(posted);
            assertEquals(0, created.get("status"), contentType + ": " + posted.text());
            String id = (String) created.get("id");
            assertTrue(id.matches("[0-9A-Za-z]{11}"), id);
            assertEquals("/pb/?" + id, created.get("url"));
            assertTrue(((String) created.get("deletetoken")).matches("[A-Za-z0-9_-]{43}"), posted.text());
            assertEquals("no-store", posted.header("Cache-Control"));
            world.store(id);

            // pbincli and the Go client ask ?<id>, pbcli ?pasteid=<id>; the base with or without its slash
            for (HttpApi.Response read : List.of(
                    world.get(id),
                    world.get("pasteid=" + id),
                    world.api.send(PrivateBinWorld.query(world.api.fixture("privatebin"), id)
                            .path("/pb")))) {
                assertEquals(200, read.status(), read.text());
                Map<String, Object> paste = world.json(read);
                assertEquals(0, paste.get("status"), read.text());
                assertEquals(id, paste.get("id"));
                assertEquals(2, paste.get("v"));
                assertEquals(List.of(), paste.get("comments"));
                byte[] adata = JsonMembers.of(read.body())
                        .orElseThrow()
                        .structure("adata")
                        .orElseThrow();
                assertArrayEquals(sealed.adata().getBytes(StandardCharsets.UTF_8), adata, read.text());
                String plain = PrivateBinClientCrypto.open(sealed, adata, (String) paste.get("ct"));
                assertEquals("{\"paste\":\"hello from " + contentType + "\"}", plain);
                @SuppressWarnings("unchecked")
                Map<String, Object> meta = (Map<String, Object>) paste.get("meta");
                int ttl = (Integer) meta.get("time_to_live");
                assertTrue(ttl > 0 && ttl <= 86_400, "1day: " + ttl);
            }
        }
    }

    @Test
    void aPasteThatNeverExpiresHasNoTimeToLive() throws Exception {
        String id = world.stored(
                PrivateBinClientCrypto.seal("forever", "never", false).body());

        Map<String, Object> paste = world.json(world.get(id));

        assertEquals(Map.of(), paste.get("meta"));
        assertNull(world.row(id).orElseThrow().expiresAt());
    }

    /** Sixteen clients read a burn-after-reading paste at once: exactly one gets it, the others "does not exist". */
    @Test
    void burnAfterReadingIsConsumedByExactlyOneOfSixteenReads() throws Exception {
        int readers = 16;
        PrivateBinClientCrypto.Sealed sealed = PrivateBinClientCrypto.seal("only once", "1hour", true);
        String id = world.stored(sealed.body());
        assertTrue(world.row(id).orElseThrow().readOnce());
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpApi.Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < readers; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return world.get(id);
                }));
            }
            go.countDown();
            int got = 0;
            for (Future<HttpApi.Response> answer : answers) {
                HttpApi.Response response = answer.get();
                assertEquals(200, response.status(), response.text());
                Map<String, Object> body = world.json(response);
                if (Integer.valueOf(0).equals(body.get("status"))) {
                    got++;
                    byte[] adata = JsonMembers.of(response.body())
                            .orElseThrow()
                            .structure("adata")
                            .orElseThrow();
                    assertEquals("{\"paste\":\"only once\"}", PrivateBinClientCrypto.open(sealed, adata, (String)
                            body.get("ct")));
                } else {
                    assertEquals(PrivateBinAnswers.GENERIC_ERROR, body.get("message"));
                }
            }
            assertEquals(1, got, "exactly one reader gets the paste");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(world.row(id).isEmpty());
        assertFalse(world.objectExists(id));
    }

    /** A read-once large paste is files, never an envelope: PrivateBin's read does not burn it (docs/design.md). */
    @Test
    void aReadOnceLargePasteIsNotBurntByPrivateBinsRead() throws Exception {
        var pastes = world.api.context().getBean(PasteRepository.class);
        var files = world.api.context().getBean(PasteFileRepository.class);
        var store = world.api.context().getBean(LargeFileStore.class);
        String id = world.api.context().getBean(ShortCodes.class).next();
        pastes.save(Paste.inProgress(
                id, null, "f".repeat(64), 10, DeleteTokens.hashOf("token-" + id), null, true, PasteMetadata.NONE));
        var file = files.save(PasteFile.staged(id, 0, "a.bin", 10, "1".repeat(64), "text/plain"));
        files.markVerified(file.fileId());
        assertEquals(1, pastes.markProcessed(id, store.filesLocationOf(id).uri()));

        Map<String, Object> read = world.json(world.get(id));

        assertEquals(1, read.get("status"), read.toString());
        var row = world.row(id).orElseThrow();
        assertNull(row.expiresAt(), "not burnt: its reveal is still to come");
    }

    /**
     * A browser, or a link preview, opening the link is sent to the web page (which decrypts it with the fragment's
     * key) and reads nothing: the paste is not burnt.
     */
    @Test
    void openingTheLinkInABrowserBurnsNothing() throws Exception {
        String id = world.stored(
                PrivateBinClientCrypto.seal("preview me", "1day", true).body());

        HttpApi.Response page = world.browse(id);
        HttpApi.Response index = world.browse("");

        assertEquals(303, page.status());
        assertEquals("/p/" + id, page.header("Location"));
        assertTrue(world.row(id).isPresent(), "still there after the page");
        assertTrue(index.text().contains("data-expiration=\"1week\""), "pbcli --scrape-expiries finds them");
        assertEquals(0, world.json(world.get(id)).get("status"), "and read once by a client");
    }

    @Test
    void deleteNeedsTheTokenAndRemovesRowAndObject() throws Exception {
        Map<String, Object> created = world.create(
                PrivateBinClientCrypto.seal("delete me", "1day", false).body());
        String id = (String) created.get("id");
        world.store(id);

        Map<String, Object> wrong =
                world.json(world.post("{\"pasteid\":\"" + id + "\",\"deletetoken\":\"not-the-token\"}", null));
        assertEquals(1, wrong.get("status"));
        assertEquals(PrivateBinController.NOT_DELETED, wrong.get("message"));
        assertTrue(world.row(id).isPresent());

        Map<String, Object> deleted = world.json(world.post(
                "{\"pasteid\":\"" + id + "\",\"deletetoken\":\"" + created.get("deletetoken") + "\"}", null));
        assertEquals(0, deleted.get("status"));
        assertEquals(id, deleted.get("id"));
        assertTrue(world.row(id).isEmpty());
        assertFalse(world.objectExists(id));
        assertEquals(PrivateBinAnswers.GENERIC_ERROR, world.json(world.get(id)).get("message"));
    }

    /** The delete link clients print (?pasteid=…&deletetoken=…), opened in a browser, deletes as PrivateBin's does. */
    @Test
    void theDeleteLinkDeletesInABrowser() throws Exception {
        Map<String, Object> created = world.create(
                PrivateBinClientCrypto.seal("linked", "1day", false).body());
        String id = (String) created.get("id");

        HttpApi.Response wrong = world.browse("pasteid=" + id + "&deletetoken=nope");
        HttpApi.Response page = world.browse("pasteid=" + id + "&deletetoken=" + created.get("deletetoken"));

        assertTrue(wrong.text().contains("Paste not deleted"), wrong.text());
        assertTrue(page.text().contains(PrivateBinController.DELETED), page.text());
        assertTrue(world.row(id).isEmpty(), "deleted while still being stored, as any paste");
    }

    /** A client reading right after it created: the read waits while the upload worker stores the paste. */
    @Test
    void aReadWhileThePasteIsBeingStoredWaitsForIt() throws Exception {
        PrivateBinClientCrypto.Sealed sealed = PrivateBinClientCrypto.seal("just created", "1day", false);
        String id = (String) world.create(sealed.body()).get("id");

        CompletableFuture<HttpApi.Response> read = CompletableFuture.supplyAsync(() -> world.get(id));
        world.store(id);

        HttpApi.Response answer = read.get();
        assertEquals(0, world.json(answer).get("status"), answer.text());
        byte[] adata =
                JsonMembers.of(answer.body()).orElseThrow().structure("adata").orElseThrow();
        assertEquals("{\"paste\":\"just created\"}", PrivateBinClientCrypto.open(sealed, adata, (String)
                world.json(answer).get("ct")));
    }

    /**
     * A paste still IN_PROGRESS long after its create (its upload retrying or held) is answered at once, in words,
     * with Retry-After: no read's wait would see it stored.
     */
    @Test
    void aPasteStillBeingStoredLongAfterItsCreateIsToldToComeBackAtOnce() throws Exception {
        String id = (String)
                world.create(PrivateBinClientCrypto.seal("held", "1day", false).body())
                        .get("id");
        execute("UPDATE pastes SET created_at = now() - interval '10 minutes' WHERE short_code = ?", id);

        HttpApi.Response answer = world.get(id);

        assertEquals(200, answer.status(), answer.text());
        assertEquals(1, world.json(answer).get("status"));
        assertEquals(
                "Document is still being stored. Try again in a few seconds.",
                world.json(answer).get("message"));
        assertEquals("1", answer.header("Retry-After"));
        assertTrue(world.row(id).isPresent());
    }

    /** Every malformed request is the protocol's refusal, HTTP 200 with status 1 and a message, never a 5xx. */
    @Test
    void edgeCasesAreTheProtocolsRefusalNeverA5xx() throws Exception {
        String valid = PrivateBinClientCrypto.seal("edge", "1day", false).body();
        String ct = PrivateBinClientCrypto.b64(PrivateBinClientCrypto.random(300));
        String adata = "[[\"MDEyMzQ1Njc4OWFiY2RlZg==\",\"c2FsdHNhbHQ=\",100000,256,128,\"aes\",\"gcm\",\"none\"],"
                + "\"plaintext\",0,0]";
        String oversized = PrivateBinClientCrypto.b64(PrivateBinClientCrypto.random(MAX_CONTENT_BYTES));
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(valid.replace("\"v\":2", "\"v\":1"), "Invalid data.");
        refusals.put(valid.replace("\"expire\":\"1day\"", "\"expire\":\"1day\",\"x\":0"), "Invalid data.");
        refusals.put(valid.replace(",256,128,", ",512,128,"), "Invalid data.");
        refusals.put(valid.replace(",\"gcm\",", ",\"ecb\","), "Invalid data.");
        refusals.put(
                "{\"v\":2,\"adata\":" + adata + ",\"ct\":\""
                        + PrivateBinClientCrypto.b64(
                                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.UTF_8))
                        + "\",\"meta\":{\"expire\":\"1day\"}}",
                "Invalid data.");
        refusals.put(
                valid.replace("\"1day\"", "\"2days\""),
                "Unknown expiry: meta.expire is one of " + PrivateBinExpiry.NAMES + ".");
        refusals.put(
                "{\"v\":2,\"adata\":" + adata + ",\"ct\":\"" + oversized + "\",\"meta\":{\"expire\":\"1day\"}}",
                "Document is limited to " + ((MAX_CONTENT_BYTES - FormatV2.ENVELOPE_RESERVE_BYTES) / 1024)
                        + " KiB of encrypted data.");
        refusals.put(valid.replace(",0,0]", ",1,0]"), "Invalid data.");
        refusals.put("", "Invalid data.");
        refusals.put("not json", "Invalid data.");
        refusals.put("[1,2]", "Invalid data.");
        refusals.put("{\"v\":2,\"v\":2}", "Invalid data.");
        refusals.put(
                "{\"v\":2,\"adata\":" + adata + ",\"ct\":\"" + ct + "\",\"meta\":{\"expire\":\"1day\"}} {}",
                "Invalid data.");
        refusals.put("{\"pasteid\":\"not-an-id!\",\"deletetoken\":\"x\"}", PrivateBinController.INVALID_ID);
        refusals.put("{\"pasteid\":\"zZ9zZ9zZ9zZ\",\"deletetoken\":\"x\"}", PrivateBinController.NOT_DELETED);
        for (String contentType : new String[] {null, "application/x-www-form-urlencoded", "application/json"}) {
            for (Map.Entry<String, String> refusal : refusals.entrySet()) {
                HttpApi.Response response = world.post(refusal.getKey(), contentType);
                String what = contentType + " " + abbreviated(refusal.getKey()) + ": " + response.text();
                assertEquals(200, response.status(), what);
                Map<String, Object> body = world.json(response);
                assertEquals(1, body.get("status"), what);
                assertEquals(refusal.getValue(), body.get("message"), what);
            }
        }

        // reads: an unknown id, a malformed one, no id at all
        assertEquals(
                PrivateBinAnswers.GENERIC_ERROR,
                world.json(world.get("zZ9zZ9zZ9zZ")).get("message"));
        assertEquals(
                PrivateBinController.INVALID_ID,
                world.json(world.get("pasteid=bad!")).get("message"));
        assertEquals(
                PrivateBinController.INVALID_ID, world.json(world.get("x=1")).get("message"));
        assertEquals(1, world.json(world.get("")).get("status"));
    }

    /** A paste another route created (plain text, even read once) is not this protocol's: not shown, not burnt. */
    @Test
    void aPasteOfAnotherRouteIsNotShownNorBurnt() throws Exception {
        CreatePasteService creates = world.api.context().getBean(CreatePasteService.class);
        String id = creates.create(
                        new PasteRequest(
                                "plain text".getBytes(StandardCharsets.UTF_8),
                                new PasteOptions(null, true),
                                PasteMetadata.NONE),
                        null,
                        null,
                        CreateCredential.NONE,
                        ClientAddress.UNKNOWN)
                .shortCode();
        world.store(id);

        Map<String, Object> answer = world.json(world.get(id));

        assertEquals(PrivateBinAnswers.GENERIC_ERROR, answer.get("message"));
        assertTrue(world.row(id).isPresent(), "a read-once paste of another route stays unread");
    }

    /** An operator's takedown and blocklist answer 451 with the protocol's body, which the clients show. */
    @Test
    void takenDownAndBlockedAre451InTheProtocolsShape() throws Exception {
        String body = PrivateBinClientCrypto.seal("blocked", "1day", false).body();
        String id = world.stored(body);
        execute("DELETE FROM pastes WHERE short_code = ?", id);
        execute(
                "INSERT INTO takedowns (short_code, reason, requested_by, content_sha256, content_size) "
                        + "VALUES (?, 'test', 'PrivateBinApiIT', repeat('0', 64), 1)",
                id);
        String envelope = new String(
                PasteEnvelope.of(world.api
                        .context()
                        .getBean(FormatV2.class)
                        .paste(PostedBody.parse(
                                        body.getBytes(StandardCharsets.UTF_8),
                                        world.api.context().getBean(io.micronaut.json.JsonMapper.class))
                                .orElseThrow())),
                StandardCharsets.UTF_8);
        execute(
                "INSERT INTO content_blocklist (sha256, reason, added_by) VALUES (?, 'test', 'PrivateBinApiIT') "
                        + "ON CONFLICT DO NOTHING",
                ContentHash.sha256Hex(envelope.getBytes(StandardCharsets.UTF_8)));

        HttpApi.Response takenDown = world.get(id);
        HttpApi.Response blocked = world.post(body, null);

        assertEquals(451, takenDown.status(), takenDown.text());
        assertEquals(1, world.json(takenDown).get("status"));
        assertNotNull(world.json(takenDown).get("message"));
        assertEquals(451, blocked.status(), blocked.text());
        assertEquals(
                "This content was blocked by the operator.", world.json(blocked).get("message"));
    }

    private static String abbreviated(String body) {
        return body.length() > 120 ? body.substring(0, 120) + "…" : body;
    }

    private static void execute(String sql, String value) throws SQLException {
        try (Connection connection = DriverManager.getConnection(
                        env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, value);
            statement.executeUpdate();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * PrivateBin's create queues its job in its client's group as the create function does (docs/design.md, "The
     * upload queue's groups"): the hash of API Gateway's source address, whatever X-Forwarded-For a request that did
     * not come through the edge carries.
     */
    @Test
    void theJobIsQueuedInItsClientsGroup() throws Exception {
        String expected = UploadGroup.of(new ClientAddress("198.51.100.7")).id();

        assertEquals(expected, groupOfCreateFrom("198.51.100.7", null));
        assertEquals(expected, groupOfCreateFrom("198.51.100.7", "203.0.113.50"));
    }

    private static String groupOfCreateFrom(String sourceIp, @Nullable String forwardedFor) throws Exception {
        PrivateBinClientCrypto.Sealed sealed = PrivateBinClientCrypto.seal(
                "grouped " + UUID.randomUUID(),
                "[ [\"%1$s\", \"%2$s\", %3$d, 256, 128, \"aes\", \"gcm\", \"zlib\"], \"plaintext\", 0, 0 ]",
                "1day",
                "");
        HttpApi.Request request = world.api
                .fixture("privatebin")
                .method("POST")
                .binaryBody(sealed.body().getBytes(StandardCharsets.UTF_8));
        request.event().getRequestContext().getHttp().setSourceIp(sourceIp);
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        HttpApi.Response posted = world.api.send(request);
        assertEquals(0, world.json(posted).get("status"), posted.text());
        return world.groupOfJob((String) world.json(posted).get("id"));
    }
}
