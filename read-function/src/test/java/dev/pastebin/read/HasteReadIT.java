package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The haste protocol's reads through the real handler, database and S3, for every state of a paste:
 * {@code /documents/{key}} ({"key", "data"}), {@code /raw/{key}} (the bytes) and {@code /{key}} (the bytes to
 * curl, the page to a browser), keys with a file extension as haste clients write them.
 */
@RealServices
class HasteReadIT {

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("read-haste-it");

    private static final List<String> CREATED = new CopyOnWriteArrayList<>();
    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    private static final byte[] CONTENT = "def hello():\r\n\tprint(\"Grüße ✓\")  \n".getBytes(StandardCharsets.UTF_8);

    @AfterAll
    static void removeTheRows() {
        CREATED.forEach(world.api.context().getBean(PasteRepository.class)::remove);
    }

    private static PasteRepository repository() {
        return world.api.context().getBean(PasteRepository.class);
    }

    private static String inProgress(Instant expiresAt, boolean readOnce) {
        String code = world.api.context().getBean(ShortCodes.class).next();
        CREATED.add(code);
        repository()
                .save(TestPastes.inProgress(
                        code,
                        null,
                        ContentHash.sha256Hex(CONTENT),
                        CONTENT.length,
                        "b".repeat(64),
                        expiresAt,
                        readOnce));
        return code;
    }

    private static String stored(Instant expiresAt, boolean readOnce) {
        String code = inProgress(expiresAt, readOnce);
        ContentLocation location =
                world.api.context().getBean(PasteContentStore.class).put(code, CONTENT, ContentHash.sha256Hex(CONTENT));
        assertEquals(1, repository().markProcessed(code, location.uri()));
        return code;
    }

    private static HttpApi.Response get(String path, String accept) {
        HttpApi.Request request = world.api.fixture("read-paste").path(path);
        return world.api.send(accept == null ? request.withoutHeader("Accept") : request.header("Accept", accept));
    }

    private static void assertError(HttpApi.Response response, int status, String code, String message)
            throws Exception {
        assertEquals(status, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"));
        Map<String, Object> error = world.json(response);
        assertEquals(code, error.get("code"), response.text());
        if (message != null) {
            assertEquals(message, error.get("message"), "what a haste client shows");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".py", ".tar.gz"})
    void aStoredDocumentIsItsKeyAndData(String extension) throws Exception {
        String code = stored(null, false);

        HttpApi.Response response =
                get("/documents/" + code + extension, "application/json, text/javascript, */*; q=0.01");

        assertEquals(200, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"));
        assertEquals(Map.of("key", code, "data", new String(CONTENT, StandardCharsets.UTF_8)), world.json(response));
        assertEquals("public, max-age=60, stale-if-error=0", response.header("Cache-Control"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".txt"})
    void theRawUrlIsTheExactBytesWhateverAcceptSays(String extension) {
        String code = stored(null, false);

        for (String accept : new String[] {null, "*/*", "application/json", BROWSER}) {
            HttpApi.Response response = get("/raw/" + code + extension, accept);

            assertEquals(200, response.status(), accept + ": " + response.text());
            assertEquals("text/plain; charset=utf-8", response.header("Content-Type"), accept);
            assertEquals("nosniff", response.header("X-Content-Type-Options"));
            assertNotNull(response.header("ETag"));
            assertArrayEquals(CONTENT, response.body(), accept);
        }
    }

    @Test
    void theUrlHasteClientsPrintGivesCurlTheBytesAndABrowserThePage() {
        String code = stored(null, false);

        for (String accept : new String[] {null, "*/*"}) {
            HttpApi.Response curl = get("/" + code, accept);
            assertEquals(200, curl.status(), curl.text());
            assertEquals("text/plain; charset=utf-8", curl.header("Content-Type"));
            assertArrayEquals(CONTENT, curl.body());
        }
        for (String path : new String[] {"/" + code, "/" + code + ".py"}) {
            HttpApi.Response browser = get(path, BROWSER);
            assertEquals(303, browser.status(), browser.text());
            assertEquals("/p/" + code, browser.header("Location"));
            assertEquals("Accept", browser.header("Vary"));
        }
    }

    @Test
    void whileStoringEveryRouteIs202WithRetryAfterNeverAnEmpty200() throws Exception {
        String code = inProgress(null, false);

        for (String path : new String[] {"/documents/" + code, "/raw/" + code, "/" + code}) {
            HttpApi.Response response = get(path, "*/*");

            assertEquals(202, response.status(), path + ": " + response.text());
            assertTrue(response.header("Retry-After").matches("[1-9][0-9]*"), path);
            assertEquals("no-store", response.header("Cache-Control"), path);
            assertEquals(Map.of("shortCode", code, "status", "IN_PROGRESS"), world.json(response), path);
        }
    }

    @Test
    void aFailedUploadIsADocumentNotFound() throws Exception {
        String code = inProgress(null, false);
        repository().markFailed(code, "exhausted");

        assertError(get("/documents/" + code, "application/json"), 404, "PASTE_NOT_FOUND", "Document not found.");
        assertError(get("/raw/" + code, "*/*"), 404, "PASTE_NOT_FOUND", "Document not found.");
        assertError(get("/" + code, "*/*"), 404, "PASTE_NOT_FOUND", null);
    }

    @Test
    void anExpiredPasteIsADocumentNotFound() throws Exception {
        String code = stored(Instant.now().minusSeconds(1), false);

        assertError(
                get("/documents/" + code + ".md", "application/json"), 404, "PASTE_NOT_FOUND", "Document not found.");
        assertError(get("/raw/" + code, "*/*"), 404, "PASTE_NOT_FOUND", "Document not found.");
        assertError(get("/" + code, "*/*"), 404, "PASTE_NOT_FOUND", null);
    }

    /**
     * Haste has no read-once: a GET that a haste client or a link preview sends must not burn it, and a 200
     * without its data would be read as an empty document. 409 says where it is revealed; nothing is deleted.
     */
    @Test
    void aReadOncePasteIsNotRevealedByAHasteRead() throws Exception {
        String code = stored(null, true);

        assertError(
                get("/documents/" + code, "application/json"),
                409,
                "READ_ONCE",
                "This paste can be read once only: reveal it with POST /pastes/" + code + "/reveal, which deletes it");
        assertError(get("/raw/" + code, "*/*"), 409, "READ_ONCE", null);
        // the URL shows what /pastes/{code} shows: its metadata, never its content
        HttpApi.Response atRoot = get("/" + code, "*/*");
        assertEquals(200, atRoot.status(), atRoot.text());
        assertEquals("true", atRoot.header("Paste-Read-Once"));
        assertEquals(false, world.json(atRoot).containsKey("content"));
        assertTrue(repository().findById(code).isPresent(), "nothing was burnt");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/documents/not-a-code!", "/documents/short", "/raw/aB3xYz9QkLm0", "/raw/.py"})
    void aMalformedKeyIs400BeforeAnyLookup(String path) throws Exception {
        assertError(get(path, "*/*"), 400, "MALFORMED_SHORT_CODE", null);
    }

    /** The root holds other names a browser or a crawler asks for: they are no such resource, not bad requests. */
    @ParameterizedTest
    @ValueSource(strings = {"/favicon.ico", "/robots.txt", "/pastes", "/documents", "/raw", "/p"})
    void aNameAtTheRootThatIsNoShortCodeIs404(String path) throws Exception {
        assertError(get(path, "*/*"), 404, "NOT_FOUND", null);
    }
}
