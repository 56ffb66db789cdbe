package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.storage.LargeFileStore;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The web pages and their files through the read function's real handler: the security headers, caching, the
 * allow-list, and what the pages may contain under their Content-Security-Policy. They never touch the database
 * (a closed port here). The pages' behaviour in a browser is infra's WebPageBrowserIT.
 */
class WebPagesTest {

    private static final String CSP_BEFORE_BUCKET =
            "default-src 'none'; script-src 'self'; style-src 'self'; " + "connect-src 'self' ";
    private static final String CSP_AFTER_BUCKET =
            "; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final Pattern ASSET_REFERENCE =
            Pattern.compile("(?:src|href)=\"(/assets/[^\"]+)\"|(?:from |Worker\\()'(/assets/[^']+)'");

    private static HttpApi api;

    @BeforeAll
    static void start() {
        api = HttpApi.start(Map.of(
                "datasources.default.url",
                "jdbc:postgresql://127.0.0.1:1/pastebin",
                "datasources.default.connection-timeout",
                250,
                "flyway.datasources.default.enabled",
                false));
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
    }

    /**
     * The one other origin a page may connect to: where the pre-signed requests go (the create page PUTs a large
     * paste's files there), exactly the scheme, host and port of a pre-signed link.
     */
    private static String bucketOrigin() {
        String origin = api.context().getBean(LargeFileStore.class).requestOrigin();
        URI link = URI.create(api.context()
                .getBean(LargeFileStore.class)
                .presignRead("aB3xYz9QkLm/0", "f.bin", "application/octet-stream")
                .toString());
        assertEquals(link.getScheme() + "://" + link.getRawAuthority(), origin);
        return origin;
    }

    private static HttpApi.Response get(String path) {
        return api.send(api.fixture("read-paste").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/p/aB3xYz9Q"})
    void pagesAreHtmlUnderTheStrictPolicy(String path) {
        HttpApi.Response page = get(path);

        assertEquals(200, page.status(), page.text());
        assertEquals("text/html; charset=utf-8", page.header("Content-Type"));
        assertEquals(CSP_BEFORE_BUCKET + bucketOrigin() + CSP_AFTER_BUCKET, page.header("Content-Security-Policy"));
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        assertEquals("no-referrer", page.header("Referrer-Policy"));
        assertEquals("no-cache", page.header("Cache-Control"));
        assertTrue(page.header("ETag").matches("\"[0-9a-f]{64}\""), page.header("ETag"));
    }

    /**
     * A worker runs under the policy delivered with its own script, not the page's: the highlight worker, and
     * every script, carries the tightest policy that lets it import its modules from here and nothing else.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "highlight-worker.js",
                "highlight.min.js",
                "view.js",
                "api.js",
                "create.js",
                "lines.js",
                "privatebin.js"
            })
    void scriptsCarryAPolicyOfTheirOwnForTheWorker(String script) {
        HttpApi.Response asset = get("/assets/" + script);

        assertEquals(200, asset.status(), asset.text());
        assertEquals("default-src 'none'; script-src 'self'", asset.header("Content-Security-Policy"), script);
    }

    /**
     * A page answers whatever a client accepts of HTML: {@code text/html} alone (not only a browser's list that
     * ends in {@code *}/{@code *}), {@code *}/{@code *}, {@code text/*} (HTML is text), and no Accept header, which
     * means anything (RFC 9110, section 12.5.1).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "text/html",
                "*/*",
                "text/html,application/xhtml+xml;q=0.9",
                "text/*",
                "text/plain, text/*;q=0.5",
                "application/json, */*;q=0.1",
                ""
            })
    void pagesAnswerEveryAcceptThatAdmitsHtml(String accept) {
        for (String path : new String[] {"/", "/p/aB3xYz9Q"}) {
            HttpApi.Request request = api.fixture("read-paste").path(path);
            HttpApi.Response page =
                    api.send(accept.isEmpty() ? request.withoutHeader("Accept") : request.header("Accept", accept));

            assertEquals(200, page.status(), path + " with Accept '" + accept + "': " + page.text());
            assertEquals("text/html; charset=utf-8", page.header("Content-Type"), path);
        }
    }

    /**
     * A client that admits no HTML at all (plain text or JSON only) is answered 406: a page has no other
     * representation, and HTML in its place is what it said it cannot take (RFC 9110, section 15.5.7).
     */
    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/json", "image/png"})
    void aPageIsNotForcedOnAClientThatTakesNoHtml(String accept) {
        HttpApi.Response response = api.send(api.fixture("read-paste").path("/").header("Accept", accept));

        assertEquals(406, response.status(), accept + ": " + response.text());
        assertTrue(response.text().contains("\"code\":\"NOT_ACCEPTABLE\""), response.text());
    }

    /**
     * The URL a command-line client prints (docs/using.md, "Use it from your terminal") is a paste's API address: a
     * browser asking for HTML there is sent to the web page, without a database call (the database here is
     * a closed port); curl ({@code *}/{@code *}) and JSON clients still get the paste itself.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
                "text/html",
                "text/plain;q=0.5, text/html"
            })
    void aBrowserOpeningAPastesApiAddressIsSentToItsPage(String accept) {
        HttpApi.Response response =
                api.send(api.fixture("read-paste").path("/pastes/aB3xYz9QkLm").header("Accept", accept));

        assertEquals(303, response.status(), response.text());
        assertEquals("/p/aB3xYz9QkLm", response.header("Location"));
        assertEquals("Accept", response.header("Vary"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"*/*", "text/plain", "application/json", "application/json, text/html;q=0.5", ""})
    void otherClientsOfAPastesApiAddressAreNotRedirected(String accept) {
        HttpApi.Request request = api.fixture("read-paste").path("/pastes/aB3xYz9QkLm");
        HttpApi.Response response =
                api.send(accept.isEmpty() ? request.withoutHeader("Accept") : request.header("Accept", accept));

        // the lookup itself answers: 503 here, where the database cannot be reached
        assertEquals(503, response.status(), accept + ": " + response.text());
    }

    /** The page's Raw link, /raw/{code}: a browser gets the bytes there, not the page it came from. */
    @Test
    void aBrowserFollowingTheRawLinkIsNotSentToThePage() {
        HttpApi.Response response = api.send(api.fixture("read-paste")
                .path("/raw/aB3xYz9QkLm")
                .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"));

        // the lookup itself answers: 503 here, where the database cannot be reached
        assertEquals(503, response.status(), response.text());
    }

    @Test
    void theViewPageIsTheSameForEveryCodeAndTheApiJudgesTheCode() {
        assertEquals(get("/p/aB3xYz9Q").text(), get("/p/not-a-code!").text());
        assertTrue(get("/p/x").text().contains("src=\"/assets/view.js\""));
        assertTrue(get("/").text().contains("src=\"/assets/create.js\""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/p/aB3xYz9Q"})
    void pagesHaveNoInlineScriptOrStyleAndNothingFromElsewhere(String path) {
        String html = get(path).text();

        assertFalse(
                Pattern.compile("<script(?![^>]*\\ssrc=\"/assets/)")
                        .matcher(html)
                        .find(),
                "inline script: " + html);
        assertFalse(
                Pattern.compile("<style|\\sstyle=|\\son[a-z]+=", Pattern.CASE_INSENSITIVE)
                        .matcher(html)
                        .find(),
                "inline style or handler: " + html);
        assertFalse(
                Pattern.compile("(?:src|href|action)=\"(?:[a-z]+:|//)")
                        .matcher(html)
                        .find(),
                "external: " + html);
        assertTrue(html.contains("<html lang=\"en\">"), "a language for screen readers");
    }

    /** Every file a page loads, and every module those import, is served with its type; nothing is missing. */
    @Test
    void everyReferencedAssetIsServedWithItsType() {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> toFetch = new ArrayDeque<>();
        references(get("/").text(), toFetch);
        references(get("/p/aB3xYz9Q").text(), toFetch);
        while (!toFetch.isEmpty()) {
            String path = toFetch.pop();
            if (!seen.add(path)) {
                continue;
            }
            HttpApi.Response asset = get(path);
            assertEquals(200, asset.status(), path);
            String type = path.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
            assertEquals(type, asset.header("Content-Type"), path);
            assertEquals("nosniff", asset.header("X-Content-Type-Options"), path);
            assertEquals("public, max-age=300", asset.header("Cache-Control"), path);
            references(asset.text(), toFetch);
        }
        assertEquals(
                Set.of(
                        "/assets/pastebin.css",
                        "/assets/create.js",
                        "/assets/view.js",
                        "/assets/api.js",
                        "/assets/lines.js",
                        "/assets/privatebin.js",
                        "/assets/highlight-worker.js",
                        "/assets/highlight.min.js",
                        "/assets/github.min.css",
                        "/assets/github-dark.min.css"),
                seen);
    }

    /** The scripts put text into the page with textContent only: nothing they show is ever parsed as HTML. */
    @ParameterizedTest
    @ValueSource(strings = {"api.js", "create.js", "view.js", "lines.js", "privatebin.js", "highlight-worker.js"})
    void scriptsNeverParseHtml(String script) {
        String js = get("/assets/" + script).text();
        for (String sink : new String[] {
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
            "DOMParser",
            "createContextualFragment"
        }) {
            assertFalse(js.contains(sink), script + " uses " + sink);
        }
    }

    @Test
    void anUnchangedFileIsAnswered304() {
        HttpApi.Response first = get("/assets/view.js");

        HttpApi.Response again = api.send(
                api.fixture("read-paste").path("/assets/view.js").header("If-None-Match", first.header("ETag")));

        assertEquals(304, again.status());
        assertEquals(0, again.body().length);
        assertEquals(first.header("ETag"), again.header("ETag"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/assets/index.html",
                "/assets/application.yml",
                "/assets/logback.xml",
                "/assets/..%2Fapplication.yml",
                "/assets/WEB.JS",
                "/assets/"
            })
    void onlyTheAllowListIsServed(String path) {
        HttpApi.Response response = get(path);

        assertEquals(404, response.status(), response.text());
        assertTrue(response.text().contains("\"code\":\"NOT_FOUND\""), response.text());
        assertEquals("application/json", response.header("Content-Type"));
    }

    private static void references(String text, Deque<String> into) {
        Matcher m = ASSET_REFERENCE.matcher(text);
        while (m.find()) {
            into.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
    }
}
