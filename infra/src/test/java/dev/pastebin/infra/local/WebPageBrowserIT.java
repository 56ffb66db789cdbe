package dev.pastebin.infra.local;

import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.browser.Chromium;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web pages in a real headless Chromium (Debian's, driven through its chromedriver) against the whole
 * system as `make run` runs it ({@link LocalRuntimeProcess}: every function, the real PostgreSQL and LocalStack):
 * create through the form, wait, view; a paste of markup shown as text and never run; read-once; delete; the
 * expiry sent. Rows in a state a test needs to hold (IN_PROGRESS, then FAILED) are set through the repository,
 * as the upload worker would.
 */
@RealServices
class WebPageBrowserIT {

    private static final Path VIEW_SCREENSHOT = Path.of("target/web-view.png").toAbsolutePath();
    private static final Path CREATE_SCREENSHOT = Path.of("target/web-create.png").toAbsolutePath();
    private static final Duration UPLOAD_WAIT = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern VIEW_ADDRESS = Pattern.compile("/p/([0-9A-Za-z]+)$");

    private static LocalRuntimeProcess system;
    private static ApplicationContext world;
    private static ChromeDriver browser;

    @BeforeAll
    static void start() throws Exception {
        system = LocalRuntimeProcess.start("local-web");
        world = ApplicationContext.run(Map.of("pastebin.storage.bucket", system.bucket,
                "aws.s3.path-style-access-enabled", true));
        ChromeOptions options = new ChromeOptions().setBinary(Chromium.find())
                .addArguments(Chromium.HEADLESS_FLAGS).addArguments("--window-size=1280,1000");
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(Chromium.findDriver())).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (world != null) {
            world.close();
        }
        if (system != null) {
            system.close();
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
        assertEquals(List.of(201L, 201L), answers.stream().map(a -> a.get("status")).toList());
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
        WebElement shown = browser.findElement(By.id("content"));
        assertEquals(content, shown.getAttribute("textContent"));
        assertEquals(0L, browser.executeScript("return arguments[0].children.length", shown), "no element was parsed");
        assertNull(browser.executeScript("return document.body.dataset.ran ?? null"), "nothing ran");
        Files.write(VIEW_SCREENSHOT, browser.getScreenshotAs(OutputType.BYTES));

        // The paste's API address, as command-line clients print it, opened in the browser: sent to the same page
        open("/pastes/" + code);
        assertTrue(browser.getCurrentUrl().endsWith("/p/" + code), browser.getCurrentUrl());
        assertEquals("ready", awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), text("message"));
        assertEquals(0L, browser.executeScript("return document.getElementById('content').children.length"));
        assertNull(browser.executeScript("return document.body.dataset.ran ?? null"));
    }

    @Test
    void aPasteStillBeingStoredIsPolledUntilItIsStored() throws Exception {
        byte[] content = "stored while the page waited\n".getBytes(StandardCharsets.UTF_8);
        Paste paste = inProgress(content);

        open("/p/" + paste.shortCode());
        assertEquals("waiting", awaitState(Duration.ofSeconds(20), "waiting", "ready", "gone", "error"));
        assertTrue(text("message").startsWith("The paste is still being stored. Checking again in "), text("message"));

        // what the upload worker does on success: the object, then the guarded transition
        PasteContentStore store = world.getBean(PasteContentStore.class);
        var location = store.put(paste.shortCode(), content, paste.contentSha256());
        assertEquals(1, world.getBean(PasteRepository.class).markProcessed(paste.shortCode(), location.uri()));

        assertEquals("ready", awaitState(Duration.ofSeconds(30), "ready", "gone", "error", "timeout"));
        assertEquals(new String(content, StandardCharsets.UTF_8), browser.findElement(By.id("content")).getAttribute("textContent"));
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
    void unknownAndMalformedCodesAreExplained() {
        open("/p/zzzzzzzz");
        assertEquals("gone", awaitState(Duration.ofSeconds(20), "gone", "ready", "error"));

        open("/p/not-a-code!");
        assertEquals("error", awaitState(Duration.ofSeconds(20), "gone", "ready", "error"));
        assertTrue(text("message").contains("A short code is 11 (or, for older pastes, 8) characters"), text("message"));
    }

    @Test
    void aReadOncePasteIsRevealedOnceThenGone() throws Exception {
        String secret = "the one-time secret\n";
        String code = createThroughTheForm(secret, null, true);
        assertTrue(text("result-details").contains("Burns after reading"), text("result-details"));

        open("/p/" + code);
        assertEquals("read-once", awaitState(UPLOAD_WAIT, "read-once", "ready", "gone", "error", "timeout"), text("message"));
        assertFalse(browser.findElement(By.id("content")).isDisplayed(), "nothing shown before the reveal");
        assertEquals("", browser.findElement(By.id("content")).getAttribute("textContent"));
        // a link preview (a plain GET) does not burn it
        assertEquals(200, api("GET", "/pastes/" + code).statusCode());

        browser.findElement(By.id("reveal")).click();
        assertEquals("revealed", awaitState(Duration.ofSeconds(30), "revealed", "gone", "error"), text("message"));
        assertEquals(secret, browser.findElement(By.id("content")).getAttribute("textContent"));

        browser.navigate().refresh();
        assertEquals("gone", awaitState(Duration.ofSeconds(20), "gone", "read-once", "ready", "error"));
        assertEquals(404, api("GET", "/pastes/" + code).statusCode());
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
        assertEquals(404, api("GET", "/pastes/" + code).statusCode());
        assertNull(browser.executeScript("return localStorage.getItem('pastebin.deleteToken.' + arguments[0])", code),
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

    private static void open(String path) {
        browser.get(system.baseUrl() + path);
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** Waits until the page's state (main's data-state) is one of {@code states}; returns it. */
    private static String awaitState(Duration timeout, String... states) {
        Set<String> wanted = Set.of(states);
        return new WebDriverWait(browser, timeout).withMessage(() -> "page state " + state() + " ("
                        + text("message") + "), expected one of " + List.of(states) + "\n" + system.output())
                .until(d -> wanted.contains(state()) ? state() : null);
    }

    private static String state() {
        return browser.findElement(By.id("page")).getDomAttribute("data-state");
    }

    // ---- the API and the rows ------------------------------------------------------------------------------

    private static HttpResponse<String> api(String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(system.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String jsonView(String code) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(system.baseUrl() + "/pastes/" + code))
                .header("Accept", "application/json").timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static Paste inProgress(byte[] content) {
        String code = world.getBean(ShortCodes.class).next();
        return world.getBean(PasteRepository.class)
                .save(Paste.inProgress(code, null, ContentHash.sha256Hex(content), content.length));
    }
}
