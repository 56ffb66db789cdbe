package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.PrivateBinClientCrypto;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import io.micronaut.context.ApplicationContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web pages in a real headless Chromium (Debian's, driven through its chromedriver) against the whole
 * system as `make run` runs it ({@link LocalRuntimeProcess}: every function, the real PostgreSQL and LocalStack):
 * create through the form, wait, view; a paste of markup shown as text and never run; read-once; delete; the
 * expiry sent; highlighting, line links, copy, download, raw, the dark theme and a phone's width. Rows in a state
 * a test needs to hold (IN_PROGRESS, then FAILED; expired) are set through the repository, as the upload worker
 * would; reporting a paste through its form, the abuse contact, and a taken-down paste's page. With
 * {@code -Dscreenshots.update=true} it refreshes the screenshots in docs/screenshots/ (README.md and docs/using.md show them).
 */
@RealServices
class WebPageBrowserIT {

    private static final Path VIEW_SCREENSHOT = Path.of("target/web-view.png").toAbsolutePath();
    private static final Path CREATE_SCREENSHOT =
            Path.of("target/web-create.png").toAbsolutePath();
    private static final String JAVA =
            "/** A greeting. */\npublic final class Hello {\n    public static void main(String[] args) {\n"
                    + "        String who = args.length > 0 ? args[0] : \"<world>\"; // markup stays text\n"
                    + "        System.out.println(\"Hello, \" + who);\n    }\n}\n";
    private static final Duration UPLOAD_WAIT = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern VIEW_ADDRESS = Pattern.compile("/p/([0-9A-Za-z]+)$");

    private static LocalRuntimeProcess system;
    private static ApplicationContext world;
    private static BrowserPage page;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        system = LocalRuntimeProcess.shared();
        world = ApplicationContext.run(
                Map.of("pastebin.storage.bucket", system.bucket, "aws.s3.path-style-access-enabled", true));
        page = BrowserPage.start(system);
        browser = page.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (page != null) {
            page.close();
        }
        if (world != null) {
            world.close();
        }
    }

    @Test
    void aPasteCreatedThroughTheFormIsShownByItsPageOnceStored() throws Exception {
        String content = "Hello from a browser\n  indented line\nGrüße, Привет – ½ ≠ ¼\n";

        String code = createThroughTheForm(content, null, false);
        assertEquals("Never expires.", text("result-details"));
        Files.write(CREATE_SCREENSHOT, browser.getScreenshotAs(OutputType.BYTES));
        browser.findElement(By.id("paste-link")).click();

        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(content, browser.findElement(By.id("content")).getAttribute("textContent"));
        assertEquals(content.getBytes(StandardCharsets.UTF_8).length + " bytes", text("size"));
        assertEquals("never", text("expires"));
        assertTrue(browser.getCurrentUrl().endsWith("/p/" + code), browser.getCurrentUrl());
        assertTrue(browser.findElement(By.id("delete")).isDisplayed(), "this browser created it, so it may delete it");
        assertFalse(browser.findElement(By.id("reveal")).isDisplayed());
    }

    /**
     * The answer to the first click is lost on its way back (the page's fetch fails after the API created the
     * paste): the second click sends the same Idempotency-Key and gets the same paste, not a second one.
     */
    @Test
    @SuppressWarnings("unchecked")
    void clickingAgainAfterALostAnswerGetsTheSamePaste() {
        open("/");
        awaitState(Duration.ofSeconds(20), "editing");
        browser.executeScript("""
                const realFetch = window.fetch;
                window.answers = [];
                window.fetch = async (url, init) => {
                  const response = await realFetch(url, init);
                  window.answers.push({ key: init.headers['Idempotency-Key'], status: response.status,
                      replayed: response.headers.get('Idempotent-Replayed'), body: await response.clone().json() });
                  if (window.answers.length === 1) {
                    throw new TypeError('Failed to fetch');
                  }
                  return response;
                };""");
        browser.findElement(By.id("content")).sendKeys("sent twice, stored once\n");

        browser.findElement(By.id("create")).click();
        assertEquals("error", awaitState(Duration.ofSeconds(30), "error", "created"));
        assertTrue(text("message").contains("Trying again is safe"), text("message"));
        browser.findElement(By.id("create")).click();
        assertEquals("created", awaitState(Duration.ofSeconds(30), "created", "error"), text("message"));

        var answers = (List<Map<String, Object>>) browser.executeScript("return window.answers");
        assertEquals(2, answers.size(), answers.toString());
        Object key = answers.get(0).get("key");
        assertTrue(key instanceof String k && k.matches("[0-9a-f]{32}"), answers.toString());
        assertEquals(key, answers.get(1).get("key"), "the same key for the same form");
        assertEquals(
                List.of(201L, 201L), answers.stream().map(a -> a.get("status")).toList());
        assertEquals("true", answers.get(1).get("replayed"));
        String first = (String) ((Map<String, Object>) answers.get(0).get("body")).get("shortCode");
        assertEquals(first, ((Map<String, Object>) answers.get(1).get("body")).get("shortCode"));
        assertTrue(browser.findElement(By.id("paste-link")).getAttribute("href").endsWith("/p/" + first));
    }

    @Test
    void markupInAPasteIsShownAsTextAndNeverRuns() throws Exception {
        String content = "<script>document.body.dataset.ran = 'script'</script>\n"
                + "<img src=\"/nothing\" onerror=\"document.body.dataset.ran = 'img'\">\n<b>not bold</b>\n";
        String code = createThroughTheForm(content, null, false);

        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        awaitHighlighting();
        WebElement shown = browser.findElement(By.id("content"));
        assertEquals(content, shown.getAttribute("textContent"));
        assertEquals(0L, foreignElements(), "no element was parsed from the paste");
        assertNull(browser.executeScript("return document.body.dataset.ran ?? null"), "nothing ran");
        Files.write(VIEW_SCREENSHOT, browser.getScreenshotAs(OutputType.BYTES));

        // The paste's API address, as command-line clients print it, opened in the browser: sent to the same page
        open("/pastes/" + code);
        assertTrue(browser.getCurrentUrl().endsWith("/p/" + code), browser.getCurrentUrl());
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(0L, foreignElements());
        assertNull(browser.executeScript("return document.body.dataset.ran ?? null"));
    }

    @Test
    void aPasteIsHighlightedInItsLanguageWithItsMarkupStillText() throws Exception {
        String code = createThroughTheApi(JAVA, "java", "Hello.java");

        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertTrue(jsonView(code).contains("\"language\":\"java\",\"fileName\":\"Hello.java\""), jsonView(code));
        awaitHighlighting();
        assertEquals("java", text("language"));
        assertEquals("Hello.java", text("file-name"));
        WebElement shown = browser.findElement(By.id("content"));
        assertEquals(JAVA, shown.getAttribute("textContent"), "the text is exactly the paste");
        assertTrue(shown.findElements(By.cssSelector("span.hljs-keyword")).size() >= 4, "keywords are highlighted");
        assertFalse(shown.findElements(By.cssSelector("span.hljs-comment")).isEmpty(), "comments are highlighted");
        assertEquals(0L, foreignElements(), "\"<world>\" is a string token, not an element");
        assertEquals(7L, browser.executeScript("return document.querySelectorAll('#content > .line').length"));
        assertEquals("3", browser.findElement(By.cssSelector("#L3 > a.ln")).getDomAttribute("data-line"));
        saveScreenshot("light.png");

        // the theme follows the system: the dark one when it prefers dark
        browser.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        try {
            assertEquals(
                    "rgb(20, 23, 29)", browser.executeScript("return getComputedStyle(document.body).backgroundColor"));
            assertEquals(
                    "rgb(255, 123, 114)",
                    browser.executeScript(
                            "return getComputedStyle(document.querySelector('#content .hljs-keyword')).color"),
                    "GitHub Dark's keywords");
            saveScreenshot("dark.png");
        } finally {
            browser.executeCdpCommand(
                    "Emulation.setEmulatedMedia",
                    Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "light"))));
        }
        assertEquals(
                "rgb(246, 247, 249)", browser.executeScript("return getComputedStyle(document.body).backgroundColor"));
    }

    @Test
    void theFormSendsTheChosenLanguageAndFileName() throws Exception {
        open("/");
        awaitState(Duration.ofSeconds(20), "editing");
        browser.findElement(By.id("content")).sendKeys("fn main() {\n    println!(\"hi\");\n}\n");
        new Select(browser.findElement(By.id("language"))).selectByValue("rust");
        browser.findElement(By.id("file-name")).sendKeys("main.rs");
        browser.findElement(By.id("create")).click();
        assertEquals("created", awaitState(Duration.ofSeconds(30), "created", "error"), text("message"));

        browser.findElement(By.id("paste-link")).click();
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        awaitHighlighting();
        assertEquals("rust", text("language"));
        assertEquals("main.rs", text("file-name"));
        assertEquals("main.rs", browser.findElement(By.id("download")).getDomAttribute("download"));
    }

    /** What the server accepts as a language is exactly what the vendored highlighter knows. */
    @Test
    @SuppressWarnings("unchecked")
    void theApisLanguagesAreTheHighlightersLanguages() {
        open("/p/zzzzzzzz");
        var languages = (List<String>) browser.executeAsyncScript(
                "import('/assets/highlight.min.js').then(m => arguments[0](m.default.listLanguages()))");
        assertEquals(new TreeSet<>(PasteMetadata.LANGUAGES), new TreeSet<>(languages));
    }

    @Test
    void anUnlabelledPasteIsDetectedAndProseStaysPlain() throws Exception {
        String python = "import sys\n\ndef main(argv):\n    # print each argument\n    for arg in argv:\n"
                + "        print(f'{arg!r}')\n    return 0\n\nif __name__ == '__main__':\n    sys.exit(main(sys.argv))\n";
        open("/p/" + createThroughTheApi(python, null, null));
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        awaitHighlighting();
        assertEquals("python (detected)", text("language"));
        assertFalse(browser.findElements(By.cssSelector("#content span.hljs-keyword"))
                .isEmpty());

        open("/p/" + createThroughTheApi("Dear diary, today was fine.\nNothing to report.\n", null, null));
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        awaitHighlighting();
        assertEquals("plain text", text("language"));
        assertTrue(browser.findElements(By.cssSelector("#content span[class^=hljs-]"))
                .isEmpty());
    }

    @Test
    void lineLinksMarkTheirLinesAndANumberLinksToItsLine() throws Exception {
        String content = "one\ntwo\nthree\nfour\nfive\n";
        String code = createThroughTheApi(content, "plaintext", null);

        open("/p/" + code + "#L2");
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(List.of("L2"), selectedLines());

        open("/p/" + code + "#L2-L4");
        browser.navigate().refresh();
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(List.of("L2", "L3", "L4"), selectedLines());

        browser.findElement(By.cssSelector("#L5 > a.ln")).click();
        assertTrue(browser.getCurrentUrl().endsWith("/p/" + code + "#L5"), browser.getCurrentUrl());
        assertEquals(List.of("L5"), selectedLines());
        assertEquals(
                content, browser.findElement(By.id("content")).getAttribute("textContent"), "numbers are not text");
    }

    @Test
    void copyDownloadAndRawGiveTheExactText() throws Exception {
        String content = "copy me: <b>exactly</b>\n\ttabs & ümlauts\n";
        String code = createThroughTheApi(content, null, "notes.md");
        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));

        // Headless Chromium grants the clipboard write but never settles a read: what the page writes is recorded
        browser.executeCdpCommand(
                "Browser.grantPermissions",
                Map.of(
                        "origin",
                        system.baseUrl(),
                        "permissions",
                        List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        browser.executeScript("const write = navigator.clipboard.writeText.bind(navigator.clipboard);"
                + "navigator.clipboard.writeText = (text) => { window.copied = text; return write(text); };");
        browser.findElement(By.id("copy")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .withMessage(() -> "copy: " + text("copy"))
                .until(d -> text("copy").equals("Copied") ? true : null);
        assertEquals(content, browser.executeScript("return window.copied"), "what the clipboard was given");

        WebElement download = browser.findElement(By.id("download"));
        assertEquals("notes.md", download.getDomAttribute("download"));
        String blob = download.getDomProperty("href");
        assertTrue(blob.startsWith("blob:"), blob);
        // the page's policy lets it fetch nothing but its origin, blob: included: the blob is opened as a document
        browser.get(blob);
        assertEquals(content, browser.executeScript("return document.body.textContent"), "the download's bytes");

        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        browser.findElement(By.id("raw")).click();
        new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(d -> d.getCurrentUrl().contains("/raw/" + code) ? true : null);
        assertEquals(content, browser.executeScript("return document.body.textContent"), "the bytes, not the page");

        // a paste without a file name downloads as its code
        String unnamed = createThroughTheApi("x\n", null, null);
        open("/p/" + unnamed);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(unnamed + ".txt", browser.findElement(By.id("download")).getDomAttribute("download"));
    }

    /**
     * The largest pastes: a mebibyte of text (stored as the upload worker would, past the create limit) is on the
     * page as numbered lines, left plain rather than highlighted; 300 KiB of Java is highlighted off the page's
     * thread, which stays free meanwhile. How fast the page shows them is the benchmarks' business, not a test's
     * (a time bound here failed on a loaded machine).
     */
    @Test
    void aMebibytePasteIsShownPlainAndLargeOnesAreHighlightedOffThePagesThread() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int line = 1; text.length() < 1024 * 1024 - 64; line++) {
            text.append("line ").append(line).append(": <b>not markup</b> and some more words to fill it\n");
        }
        Paste huge = stored(text.toString().getBytes(StandardCharsets.UTF_8), PasteMetadata.NONE);
        long lines = text.chars().filter(c -> c == '\n').count();

        open("/p/" + huge.shortCode() + "#L" + (lines - 1));
        assertEquals("ready", awaitState(Duration.ofSeconds(60), "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(lines, browser.executeScript("return document.getElementById('content').childElementCount"));
        assertEquals("plain text (too large to highlight)", text("language"));
        assertEquals(List.of("L" + (lines - 1)), selectedLines());

        String java = "class Big {\n" + "    int value = 42; // a comment \"with a string\"\n".repeat(6_500) + "}\n";
        Paste large = stored(java.getBytes(StandardCharsets.UTF_8), new PasteMetadata("java", "Big.java"));
        open("/p/" + large.shortCode());
        assertEquals("ready", awaitState(Duration.ofSeconds(60), "ready", "gone", "error", "timeout"), text("message"));
        long beforeScript = System.nanoTime();
        browser.executeScript("return 1");
        assertTrue(
                Duration.ofNanos(System.nanoTime() - beforeScript).compareTo(Duration.ofSeconds(2)) < 0,
                "the page answers while the worker highlights");
        awaitHighlighting();
        assertFalse(
                browser.findElements(By.cssSelector("#L3 span.hljs-comment")).isEmpty(), "highlighted in the end");
    }

    /** At a phone's width the page never scrolls sideways: only the code box does, for its long lines. */
    @Test
    void atAPhonesWidthOnlyTheCodeBoxScrollsSideways() throws Exception {
        String code =
                createThroughTheApi("def f():\n    return '" + "a long line ".repeat(30) + "'\n", "python", "long.py");
        Dimension before = browser.manage().window().getSize();
        browser.manage().window().setSize(new Dimension(375, 800));
        try {
            open("/p/" + code + "#L2");
            assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
            awaitHighlighting();
            assertEquals(
                    Boolean.TRUE,
                    browser.executeScript(
                            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"),
                    "page scroll width " + browser.executeScript("return document.documentElement.scrollWidth"));
            assertEquals(
                    Boolean.TRUE,
                    browser.executeScript(
                            "const box = document.getElementById('content'); return box.scrollWidth > box.clientWidth"),
                    "the long line scrolls inside the box");
            saveScreenshot("phone.png");
        } finally {
            browser.manage().window().setSize(before);
        }
    }

    @Test
    void aPasteStillBeingStoredIsPolledUntilItIsStored() throws Exception {
        byte[] content = "stored while the page waited\n".getBytes(StandardCharsets.UTF_8);
        Paste paste = inProgress(content);

        open("/p/" + paste.shortCode());
        assertEquals("waiting", awaitState(Duration.ofSeconds(20), "waiting", "ready", "gone", "error"));
        assertTrue(text("message").startsWith("The paste is still being stored. Checking again in "), text("message"));
        assertFalse(browser.findElement(By.id("copy")).isDisplayed(), "nothing to copy yet");
        saveScreenshot("storing.png");

        // what the upload worker does on success: the object, then the guarded transition
        PasteContentStore store = world.getBean(PasteContentStore.class);
        var location = store.put(paste.shortCode(), content, paste.contentSha256());
        assertEquals(1, world.getBean(PasteRepository.class).markProcessed(paste.shortCode(), location.uri()));

        assertEquals("ready", awaitState(Duration.ofSeconds(30), "ready", "gone", "error", "timeout"));
        assertEquals(
                new String(content, StandardCharsets.UTF_8),
                browser.findElement(By.id("content")).getAttribute("textContent"));
    }

    @Test
    void aPasteWhoseUploadFailedWhileThePageWaitedSaysItIsGone() throws Exception {
        Paste paste = inProgress("never stored".getBytes(StandardCharsets.UTF_8));

        open("/p/" + paste.shortCode());
        assertEquals("waiting", awaitState(Duration.ofSeconds(20), "waiting", "ready", "gone", "error"));
        assertEquals(1, world.getBean(PasteRepository.class).markFailed(paste.shortCode(), "permanent: test"));

        assertEquals("gone", awaitState(Duration.ofSeconds(30), "gone", "ready", "error", "timeout"));
        assertTrue(text("message").startsWith("There is no paste here"), text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed());
    }

    @Test
    void unknownExpiredAndMalformedCodesAreExplained() {
        open("/p/zzzzzzzz");
        assertEquals("gone", awaitState(Duration.ofSeconds(20), "gone", "ready", "error"));

        String expired = world.getBean(ShortCodes.class).next();
        world.getBean(PasteRepository.class)
                .save(TestPastes.inProgress(
                        expired,
                        null,
                        "e".repeat(64),
                        3,
                        "f".repeat(64),
                        Instant.now().minusSeconds(1),
                        false));
        open("/p/" + expired);
        assertEquals("gone", awaitState(Duration.ofSeconds(20), "gone", "ready", "waiting", "error"));
        assertTrue(text("message").startsWith("There is no paste here"), text("message"));

        open("/p/not-a-code!");
        assertEquals("error", awaitState(Duration.ofSeconds(20), "gone", "ready", "error"));
        assertTrue(
                text("message").contains("A short code is 11 (or, for older pastes, 8) characters"), text("message"));
    }

    @Test
    void aReadOncePasteIsRevealedOnceThenGone() throws Exception {
        String secret = "the one-time secret\n";
        String code = createThroughTheForm(secret, null, true);
        assertTrue(text("result-details").contains("Burns after reading"), text("result-details"));

        open("/p/" + code);
        assertEquals(
                "read-once",
                awaitState(UPLOAD_WAIT, "read-once", "ready", "gone", "error", "timeout"),
                text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed(), "nothing shown before the reveal");
        assertEquals("", browser.findElement(By.id("content")).getAttribute("textContent"));
        // a link preview (a plain GET) does not burn it
        assertEquals(200, api("GET", "/pastes/" + code).statusCode());

        browser.findElement(By.id("reveal")).click();
        assertEquals("revealed", awaitState(Duration.ofSeconds(30), "revealed", "gone", "error"), text("message"));
        assertEquals(secret, browser.findElement(By.id("content")).getAttribute("textContent"));
        assertTrue(browser.findElement(By.id("copy")).isDisplayed(), "the page holds the only copy: copy it");
        assertTrue(browser.findElement(By.id("download")).isDisplayed());
        assertFalse(browser.findElement(By.id("raw")).isDisplayed(), "nothing left on the server to link to");

        browser.navigate().refresh();
        assertEquals("gone", awaitState(Duration.ofSeconds(20), "gone", "read-once", "ready", "error"));
        assertEquals(404, api("GET", "/pastes/" + code).statusCode());
    }

    /**
     * A read-once paste opened by a link this page did not write: its API address as command-line clients print it,
     * and a PrivateBin client's burn-after-reading link (pbincli and pbcli print {@code /pb/?<id>#<key>}, without
     * the {@code -} that marks the page's own). Whether to ask is the server's word ({@code Paste-Read-Once}), not
     * the link's: nothing is consumed until the reader confirms, so neither opening the link nor a preview that runs
     * the page's script burns it.
     */
    @Test
    void aReadOncePasteOpenedByAClientsLinkIsReadOnlyOnceTheReaderConfirms() throws Exception {
        String code = createThroughTheForm("read once, from the API's address\n", null, true);
        open("/pastes/" + code);
        assertEquals(
                "read-once",
                awaitState(UPLOAD_WAIT, "read-once", "revealed", "ready", "gone", "error", "timeout"),
                text("message"));
        assertEquals(200, api("GET", "/pastes/" + code).statusCode(), "still there");

        String secret = "burn me, but only when asked";
        PrivateBinClientCrypto.Sealed sealed = PrivateBinClientCrypto.seal(secret, "1day", true);
        String id = createThroughPrivateBin(sealed);
        page.openAddress(system.baseUrl() + "/pb/?" + id + "#" + sealed.linkKey());
        assertEquals(
                "read-once",
                awaitState(UPLOAD_WAIT, "read-once", "revealed", "ready", "password", "gone", "error", "timeout"),
                text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed(), "nothing shown before the confirmation");
        HttpResponse<String> stillThere = api("GET", "/pastes/" + id);
        assertEquals(200, stillThere.statusCode(), stillThere.body());
        assertEquals("true", stillThere.headers().firstValue("Paste-Read-Once").orElse(null));

        browser.findElement(By.id("reveal")).click();
        assertEquals("revealed", awaitState(Duration.ofSeconds(30), "revealed", "gone", "error"), text("message"));
        assertEquals(secret, browser.findElement(By.id("content")).getAttribute("textContent"));
        assertEquals(404, api("GET", "/pastes/" + id).statusCode(), "burnt by the confirmed read");
    }

    /**
     * A PrivateBin paste whose plaintext inflates past what the page opens (a deflate bomb: 32 MiB of zeros, about 32 KiB
     * deflated; the largest paste would inflate to most of a gigabyte): the page stops inflating at its cap and says
     * so instead of showing it, and the tab still answers.
     */
    @Test
    void anEncryptedPasteThatInflatesPastThePagesCapIsNotOpened() throws Exception {
        PrivateBinClientCrypto.Sealed bomb =
                PrivateBinClientCrypto.sealPlaintext(new byte[32 * 1024 * 1024], "1day", false);
        String id = createThroughPrivateBin(bomb);

        page.openAddress(system.baseUrl() + "/pb/?" + id + "#" + bomb.linkKey());

        assertEquals(
                "too-large",
                awaitState(UPLOAD_WAIT, "too-large", "ready", "password", "gone", "error", "timeout"),
                text("message"));
        assertTrue(text("message").contains("more than 16 MiB"), text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed());
        assertEquals("too-large", browser.executeScript("return document.getElementById('page').dataset.state"));
    }

    @Test
    void theBrowserThatCreatedAPasteCanDeleteIt() throws Exception {
        String code = createThroughTheForm("delete me\n", null, false);
        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));

        browser.findElement(By.id("delete")).click();
        assertTrue(browser.findElement(By.id("delete-confirmation")).isDisplayed());
        browser.findElement(By.id("delete-confirm")).click();

        assertEquals("deleted", awaitState(Duration.ofSeconds(30), "deleted", "gone", "error"), text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed());
        assertFalse(browser.findElement(By.id("copy")).isDisplayed());
        assertFalse(browser.findElement(By.id("download")).isDisplayed());
        assertEquals(404, api("GET", "/pastes/" + code).statusCode());
        assertNull(
                browser.executeScript("return localStorage.getItem('pastebin.deleteToken.' + arguments[0])", code),
                "the token is forgotten");
    }

    @Test
    void withoutItsTokenABrowserIsNotOfferedDelete() throws Exception {
        String code = createThroughTheForm("not yours to delete\n", null, false);
        browser.executeScript("localStorage.clear()");

        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertFalse(browser.findElement(By.id("delete")).isDisplayed());
    }

    @Test
    void theChosenExpiryIsSentAndShown() throws Exception {
        Instant before = Instant.now();
        String code = createThroughTheForm("for an hour\n", "3600", false);
        Instant after = Instant.now();
        assertTrue(text("result-details").startsWith("Expires "), text("result-details"));

        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertFalse(text("expires").equals("never"), text("expires"));

        String view = jsonView(code);
        Matcher expiresAt = Pattern.compile("\"expiresAt\":\"([^\"]+)\"").matcher(view);
        assertTrue(expiresAt.find(), view);
        Instant expires = Instant.parse(expiresAt.group(1));
        assertFalse(expires.isBefore(before.plusSeconds(3600).minusSeconds(5)), expires + " vs " + before);
        assertFalse(expires.isAfter(after.plusSeconds(3600).plusSeconds(5)), expires + " vs " + after);
    }

    // ---- the page ------------------------------------------------------------------------------------------

    /** Fills in and submits the create form; returns the short code of the link it shows. */
    private static String createThroughTheForm(String content, String expiresInSeconds, boolean readOnce) {
        open("/");
        awaitState(Duration.ofSeconds(20), "editing");
        browser.findElement(By.id("content")).sendKeys(content);
        if (expiresInSeconds != null) {
            new Select(browser.findElement(By.id("expires-in"))).selectByValue(expiresInSeconds);
        }
        if (readOnce) {
            browser.findElement(By.cssSelector("label[for=read-once]")).click();
        }
        browser.findElement(By.id("create")).click();
        assertEquals("created", awaitState(Duration.ofSeconds(30), "created", "error"), text("message"));
        String address = browser.findElement(By.id("paste-link")).getAttribute("href");
        assertEquals(address, text("paste-link"));
        Matcher code = VIEW_ADDRESS.matcher(address);
        assertTrue(code.find(), address);
        return code.group(1);
    }

    @Test
    void aPasteIsReportedFromItsPageAndEveryPageShowsTheAbuseContact() throws Exception {
        String code = createThroughTheForm("report me\n", null, false);
        assertEquals("abuse@localhost", text("abuse-contact"), "the create page shows the contact");
        open("/p/" + code);
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(
                "mailto:abuse@localhost",
                browser.findElement(By.id("abuse-contact")).getDomAttribute("href"));
        assertFalse(browser.findElement(By.id("report-form")).isDisplayed());

        browser.findElement(By.id("report-link")).click();
        assertTrue(browser.findElement(By.id("report-form")).isDisplayed());
        new Select(browser.findElement(By.id("report-reason"))).selectByValue("phishing");
        browser.findElement(By.id("report-text")).sendKeys("A fake bank login page.");
        browser.findElement(By.id("report-contact")).sendKeys("reader@example.org");
        browser.findElement(By.id("report-send")).click();

        new WebDriverWait(browser, API_WAIT)
                .withMessage(() -> "report form: " + text("report-message") + "\n" + system.output())
                .until(d ->
                        "sent".equals(browser.findElement(By.id("report-form")).getDomAttribute("data-state")));
        assertTrue(text("report-message").startsWith("Thank you."), text("report-message"));
        saveScreenshot("report.png");
    }

    /**
     * A paste the operator took down (infra/admin takedown, through the runtime's moderation function): its read
     * route answers 451 (RFC 7725) PASTE_TAKEN_DOWN, and the page says so, distinctly from a paste that is merely
     * gone, with nothing left to report.
     */
    @Test
    void aPasteTakenDownIsSaidToBeRemovedForLegalReasons() throws Exception {
        String code = createThroughTheApi("to be taken down " + UUID.randomUUID(), null, null);
        LocalInvokeIT.Run takedown = system.admin("takedown", code, "--reason", "browser test");
        assertEquals(0, takedown.exitCode(), takedown.stdout() + takedown.stderr());
        assertTrue(takedown.stdout().contains("\"outcome\":\"taken-down\""), takedown.stdout());

        open("/p/" + code);

        assertEquals("taken-down", awaitState(Duration.ofSeconds(30), "taken-down", "gone", "error"), text("message"));
        assertEquals("This paste was removed by the operator for legal reasons.", text("message"));
        assertFalse(browser.findElement(By.id("report-link")).isDisplayed(), "nothing left to report");
        assertFalse(browser.findElement(By.id("content")).isDisplayed());
        saveScreenshot("taken-down.png");
    }

    /** Creates a paste through the JSON API, with a language and a file name when given; returns its code. */
    private static String createThroughTheApi(String content, String language, String fileName) throws Exception {
        StringBuilder json = new StringBuilder("{\"content\":").append(jsonString(content));
        if (language != null) {
            json.append(",\"language\":").append(jsonString(language));
        }
        if (fileName != null) {
            json.append(",\"fileName\":").append(jsonString(fileName));
        }
        HttpResponse<String> created = HTTP.send(
                HttpRequest.newBuilder(URI.create(system.baseUrl() + "/pastes"))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                json.append('}').toString()))
                        .timeout(API_WAIT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        Matcher code = Pattern.compile("\"shortCode\":\"([0-9A-Za-z]+)\"").matcher(created.body());
        assertTrue(code.find(), created.body());
        return code.group(1);
    }

    /**
     * Posts a paste to /pb/ as PrivateBin's clients do; returns its id once it is stored (the API's read answers a
     * read-once paste's metadata, so waiting burns nothing).
     */
    private static String createThroughPrivateBin(PrivateBinClientCrypto.Sealed sealed) throws Exception {
        HttpResponse<String> created = HTTP.send(
                HttpRequest.newBuilder(URI.create(system.baseUrl() + "/pb/"))
                        .header("X-Requested-With", "JSONHttpRequest")
                        .POST(HttpRequest.BodyPublishers.ofString(sealed.body()))
                        .timeout(API_WAIT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher id = Pattern.compile("\"id\":\"([0-9A-Za-z]+)\"").matcher(created.body());
        assertTrue(created.body().contains("\"status\":0") && id.find(), created.body());
        long deadline = System.nanoTime() + UPLOAD_WAIT.toNanos();
        HttpResponse<String> read;
        do {
            Thread.sleep(100);
            read = api("GET", "/pastes/" + id.group(1));
        } while (read.statusCode() == 202 && System.nanoTime() < deadline);
        assertEquals(200, read.statusCode(), read.body() + "\n" + system.output());
        return id.group(1);
    }

    private static String jsonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Waits until the lines are final: highlighted, or known to stay plain. */
    private static void awaitHighlighting() {
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .withMessage(() -> "language: " + text("language"))
                .until(d -> "done".equals(browser.findElement(By.id("content")).getDomAttribute("data-highlighting"))
                        ? true
                        : null);
    }

    /** Elements in the code box other than the page's own lines, numbers and highlight.js's token spans. */
    private static long foreignElements() {
        return (Long) browser.executeScript("return [...document.querySelectorAll('#content *')].filter(e => !("
                + "(e.localName === 'span' && e.classList.contains('line') && e.parentElement.id === 'content')"
                + " || (e.localName === 'a' && e.classList.contains('ln') && e.attributes.length === 4)"
                + " || (e.localName === 'span' && e.attributes.length === 1 && e.classList.length > 0"
                + " && [...e.classList].every(c => /^(hljs-[a-z-]+|[a-z]+_+|language-[a-z-]+)$/.test(c))))).length");
    }

    private static List<String> selectedLines() {
        return browser.findElements(By.cssSelector("#content .line.selected")).stream()
                .map(e -> e.getDomAttribute("id"))
                .toList();
    }

    private static void saveScreenshot(String name) throws Exception {
        page.saveScreenshot(name);
    }

    private static void open(String path) {
        page.open(path);
    }

    private static String text(String id) {
        return page.text(id);
    }

    private static String awaitState(Duration timeout, String... states) {
        return page.awaitState(timeout, states);
    }

    // ---- the API and the rows ------------------------------------------------------------------------------

    /** A request may meet a function's cold start on a busy machine: the test waits for it, speed is not its subject. */
    private static final Duration API_WAIT = Duration.ofMinutes(3);

    private static HttpResponse<String> api(String method, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(system.baseUrl() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .timeout(API_WAIT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String jsonView(String code) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create(system.baseUrl() + "/pastes/" + code))
                                .header("Accept", "application/json")
                                .timeout(API_WAIT)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** A stored paste, put in place as the upload worker stores one (any size: no create limit applies). */
    private static Paste stored(byte[] content, PasteMetadata metadata) {
        Paste paste = world.getBean(PasteRepository.class)
                .save(Paste.inProgress(
                        world.getBean(ShortCodes.class).next(),
                        null,
                        ContentHash.sha256Hex(content),
                        content.length,
                        "a".repeat(64),
                        null,
                        false,
                        metadata));
        var location = world.getBean(PasteContentStore.class).put(paste.shortCode(), content, paste.contentSha256());
        assertEquals(1, world.getBean(PasteRepository.class).markProcessed(paste.shortCode(), location.uri()));
        return paste;
    }

    private static Paste inProgress(byte[] content) {
        String code = world.getBean(ShortCodes.class).next();
        return world.getBean(PasteRepository.class)
                .save(TestPastes.inProgress(code, null, ContentHash.sha256Hex(content), content.length));
    }
}
