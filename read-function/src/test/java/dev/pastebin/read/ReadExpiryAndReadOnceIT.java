package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** GET/HEAD of pastes that expire or are read-once, through the real handler, database and S3. */
@RealServices
class ReadExpiryAndReadOnceIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("read-options-it");

    private static final List<String> CREATED = new CopyOnWriteArrayList<>();

    @AfterAll
    static void removeTheRows() {
        // before the world's clean-up: the sweeper's tests expect no expiring paste but their own in the shared
        // database
        CREATED.forEach(world.api.context().getBean(PasteRepository.class)::remove);
    }

    /** A stored paste, as create and the upload worker leave it. */
    private static Paste stored(String text, Instant expiresAt, boolean readOnce) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        PasteRepository repository = world.api.context().getBean(PasteRepository.class);
        String code = world.api.context().getBean(ShortCodes.class).next();
        CREATED.add(code);
        repository.save(TestPastes.inProgress(
                code, null, ContentHash.sha256Hex(content), content.length, "b".repeat(64), expiresAt, readOnce));
        ContentLocation location =
                world.api.context().getBean(PasteContentStore.class).put(code, content, ContentHash.sha256Hex(content));
        assertEquals(1, repository.markProcessed(code, location.uri()));
        return repository.findById(code).orElseThrow();
    }

    private static HttpApi.Request get(String code) {
        return world.api.fixture("read-paste").path("/pastes/" + code);
    }

    @Test
    void anExpiringPasteIsCachedNoLongerThanItLives() throws Exception {
        Paste paste = stored("short-lived", Instant.now().plusSeconds(600), false);

        HttpApi.Response response = world.api.send(get(paste.shortCode()));

        assertEquals(200, response.status(), response.text());
        assertEquals("short-lived", response.text());
        assertEquals(
                "public, max-age=60, stale-if-error=0",
                response.header("Cache-Control"),
                "a minute, as any paste: a DELETE takes effect");
    }

    @Test
    void aPasteExpiringWithinAMinuteIsCachedNoLongerThanItLives() throws Exception {
        Instant expiresAt = Instant.now().plusSeconds(50);
        Paste paste = stored("about to expire", expiresAt, false);

        HttpApi.Response response = world.api.send(get(paste.shortCode()));

        // the time left when the answer was made lies between what was left before the request and after it
        long leftAfter = Duration.between(Instant.now(), expiresAt).toSeconds();
        assertEquals(200, response.status(), response.text());
        String cacheControl = response.header("Cache-Control");
        var maxAge = java.util.regex.Pattern.compile("public, max-age=(\\d+), stale-if-error=0")
                .matcher(cacheControl);
        assertTrue(maxAge.matches(), cacheControl);
        long seconds = Long.parseLong(maxAge.group(1));
        assertTrue(
                seconds <= 50 && seconds >= leftAfter - 1,
                cacheControl + ", " + leftAfter + " s left after the answer");
    }

    @Test
    void theJsonViewShowsTheExpiryAndReadOnce() throws Exception {
        Instant expiresAt = Instant.parse("2099-01-01T00:00:00Z");
        Paste paste = stored("with metadata", expiresAt, false);

        Map<String, Object> view =
                world.json(world.api.send(get(paste.shortCode()).header("Accept", "application/json")));

        assertEquals("2099-01-01T00:00:00Z", view.get("expiresAt"));
        assertEquals(false, view.get("readOnce"));
        assertEquals("with metadata", view.get("content"));
    }

    @Test
    void aPasteWithoutExpiryIsCachedAMinuteAndShowsNullExpiry() throws Exception {
        Paste paste = stored("forever", null, false);

        assertEquals(
                "public, max-age=60, stale-if-error=0",
                world.api.send(get(paste.shortCode())).header("Cache-Control"),
                "not immutable: a DELETE must take effect in caches too");
        Map<String, Object> view =
                world.json(world.api.send(get(paste.shortCode()).header("Accept", "application/json")));
        assertTrue(view.containsKey("expiresAt"));
        assertNull(view.get("expiresAt"));
    }

    @Test
    void anExpiredPasteIs404AtOnceOnGetAndHead() throws Exception {
        Paste paste = stored("gone", Instant.now().minusMillis(1), false);

        HttpApi.Response get = world.api.send(get(paste.shortCode()));
        HttpApi.Response head = world.api.send(get(paste.shortCode()).method("HEAD"));

        assertEquals(404, get.status(), get.text());
        assertEquals("PASTE_NOT_FOUND", world.json(get).get("code"));
        assertEquals(404, head.status());
    }

    /**
     * The web route of an expired paste: the view page is served as for any code (it is static), and the call
     * its script makes, GET of the paste as JSON, answers 404 PASTE_NOT_FOUND, which the page shows as gone.
     */
    @Test
    void anExpiredPastesWebPageFindsItGone() throws Exception {
        Paste paste = stored("expired on the web", Instant.now().minusMillis(1), false);

        HttpApi.Response page = world.api.send(
                world.api.fixture("read-paste").path("/p/" + paste.shortCode()).header("Accept", "text/html"));
        HttpApi.Response api = world.api.send(get(paste.shortCode()).header("Accept", "application/json"));

        assertEquals(200, page.status(), page.text());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertFalse(page.text().contains("expired on the web"));
        assertEquals(404, api.status(), api.text());
        assertEquals("PASTE_NOT_FOUND", world.json(api).get("code"));
        assertEquals("no-store", api.header("Cache-Control"), "a browser must not keep the answer either");
    }

    @Test
    void aReadOncePasteShowsItsMetadataNeverItsContent() throws Exception {
        Paste paste = stored("the secret", Instant.parse("2099-01-01T00:00:00Z"), true);

        for (String accept : new String[] {"*/*", "text/plain", "application/json"}) {
            HttpApi.Response response = world.api.send(get(paste.shortCode()).header("Accept", accept));

            assertEquals(200, response.status(), accept + ": " + response.text());
            assertFalse(response.text().contains("the secret"), "a preview must not see it");
            assertTrue(response.header("Content-Type").startsWith("application/json"), accept);
            assertEquals("no-store", response.header("Cache-Control"));
            assertEquals("true", response.header("Paste-Read-Once"));
            assertNull(response.header("ETag"));
            Map<String, Object> view = world.json(response);
            assertEquals(
                    Map.of(
                            "shortCode",
                            paste.shortCode(),
                            "status",
                            "PROCESSED",
                            "readOnce",
                            true,
                            "sizeBytes",
                            10,
                            "expiresAt",
                            "2099-01-01T00:00:00Z"),
                    view);
        }
        HttpApi.Response head = world.api.send(get(paste.shortCode()).method("HEAD"));
        assertEquals(200, head.status());
        assertEquals("true", head.header("Paste-Read-Once"));
        assertEquals(0, head.body().length);
        // neither GET nor HEAD burnt it
        assertTrue(world.api
                .context()
                .getBean(PasteRepository.class)
                .findById(paste.shortCode())
                .isPresent());
    }

    @Test
    void aReadOncePasteStillUploadingIs202() throws Exception {
        String code = world.api.context().getBean(ShortCodes.class).next();
        world.api
                .context()
                .getBean(PasteRepository.class)
                .save(TestPastes.inProgress(code, null, "c".repeat(64), 3, "d".repeat(64), null, true));

        HttpApi.Response response = world.api.send(get(code));

        assertEquals(202, response.status(), response.text());
        assertEquals("IN_PROGRESS", world.json(response).get("status"));
    }
}
