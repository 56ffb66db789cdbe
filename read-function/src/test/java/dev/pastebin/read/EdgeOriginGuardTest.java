package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The origin guard (docs/design.md, "Edge") through the read function's real handler: with an origin secret
 * configured, only requests carrying it in {@code X-Origin-Verify} (the header CloudFront adds) get any work
 * done; everything else is a 403 before routing reaches the database (a closed port here, which would
 * answer 503). Without a secret or with a blank one, as locally, the guard is off.
 */
class EdgeOriginGuardTest {

    private static final String SECRET = "0123456789abcdefghijABCDEFGHIJ";
    /** The secret before a rotation, accepted while CloudFront deploys the new one. */
    private static final String PREVIOUS_SECRET = "previousSecret0123456789abcdef";

    private static final String PASTE = "/pastes/aB3xYz9QkLm";

    private static HttpApi guarded;
    private static HttpApi unguarded;
    private static HttpApi rotating;

    @BeforeAll
    static void start() {
        Map<String, Object> noDatabase = Map.of(
                "datasources.default.url",
                "jdbc:postgresql://127.0.0.1:1/pastebin",
                "datasources.default.connection-timeout",
                250,
                "flyway.datasources.default.enabled",
                false);
        Map<String, Object> edge = new HashMap<>(noDatabase);
        edge.put("pastebin.edge.origin-secret", SECRET);
        guarded = HttpApi.start(edge);
        // blank, as the sam local environment files set it (unset, as in every other test, is the same)
        Map<String, Object> blank = new HashMap<>(noDatabase);
        blank.put("pastebin.edge.origin-secret", "");
        unguarded = HttpApi.start(blank);
        Map<String, Object> rotation = new HashMap<>(edge);
        rotation.put("pastebin.edge.previous-origin-secret", PREVIOUS_SECRET);
        rotating = HttpApi.start(rotation);
    }

    @AfterAll
    static void stop() {
        for (HttpApi api : new HttpApi[] {guarded, unguarded, rotating}) {
            if (api != null) {
                api.close();
            }
        }
    }

    @Test
    void aRequestWithoutTheOriginHeaderIsForbiddenBeforeAnyWork() {
        HttpApi.Response response =
                guarded.send(guarded.fixture("read-paste").path(PASTE).header("Accept", "*/*"));

        assertForbidden(response);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "wrong", "0123456789abcdefghijABCDEFGHI", "0123456789abcdefghijABCDEFGHIJ0"})
    void aRequestWithAWrongOriginHeaderIsForbidden(String value) {
        HttpApi.Response response = guarded.send(guarded.fixture("read-paste")
                .path(PASTE)
                .header("Accept", "*/*")
                .header("X-Origin-Verify", value));

        assertForbidden(response);
    }

    @Test
    void aRequestThroughTheEdgeIsServed() {
        HttpApi.Response page =
                guarded.send(guarded.fixture("read-paste").path("/").header("X-Origin-Verify", SECRET));
        HttpApi.Response paste = guarded.send(guarded.fixture("read-paste")
                .path(PASTE)
                .header("Accept", "*/*")
                .header("X-Origin-Verify", SECRET));

        assertEquals(200, page.status(), page.text());
        // the lookup itself answers: 503 here, where the database cannot be reached
        assertEquals(503, paste.status(), paste.text());
    }

    /** During a rotation both the new secret and the previous one pass; anything else is still refused. */
    @Test
    void duringARotationThePreviousSecretIsAcceptedToo() {
        for (String secret : new String[] {SECRET, PREVIOUS_SECRET}) {
            HttpApi.Response page =
                    rotating.send(rotating.fixture("read-paste").path("/").header("X-Origin-Verify", secret));
            assertEquals(200, page.status(), secret + ": " + page.text());
        }
        for (String wrong : new String[] {"", "wrong", PREVIOUS_SECRET + "0", PREVIOUS_SECRET.substring(1)}) {
            assertForbidden(
                    rotating.send(rotating.fixture("read-paste").path("/").header("X-Origin-Verify", wrong)));
        }
        assertForbidden(rotating.send(rotating.fixture("read-paste").path("/")));
    }

    /** Outside a rotation the previous secret is an ordinary wrong value. */
    @Test
    void withoutARotationThePreviousSecretIsRefused() {
        assertForbidden(
                guarded.send(guarded.fixture("read-paste").path("/").header("X-Origin-Verify", PREVIOUS_SECRET)));
    }

    @Test
    void withABlankOriginSecretTheGuardIsOff() {
        HttpApi.Response page = unguarded.send(unguarded.fixture("read-paste").path("/"));

        assertEquals(200, page.status(), page.text());
    }

    private static void assertForbidden(HttpApi.Response response) {
        assertEquals(403, response.status(), response.text());
        assertEquals("application/json", response.header("Content-Type"));
        assertEquals("no-store", response.header("Cache-Control"));
        assertTrue(response.text().contains("\"code\":\"EDGE_REQUIRED\""), response.text());
    }
}
