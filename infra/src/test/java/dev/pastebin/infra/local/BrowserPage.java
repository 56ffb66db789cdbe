package dev.pastebin.infra.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.browser.Chromium;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's, driven through its chromedriver) on one local system's pages: opens a page,
 * reads its elements, waits for the state the page's scripts put in main's {@code data-state}, and lists the
 * requests the browser sent as DevTools recorded them (what went over the wire: address, headers, body).
 */
final class BrowserPage implements AutoCloseable {

    private static final Path DOCS_SCREENSHOTS =
            Path.of("..", "docs", "screenshots").toAbsolutePath();

    private final ChromeDriver driver;
    private final LocalRuntimeProcess system;

    private BrowserPage(ChromeDriver driver, LocalRuntimeProcess system) {
        this.driver = driver;
        this.system = system;
    }

    static BrowserPage start(LocalRuntimeProcess system) throws IOException, InterruptedException {
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        ChromeOptions options = new ChromeOptions()
                .setBinary(Chromium.find())
                .addArguments(Chromium.HEADLESS_FLAGS)
                .addArguments("--window-size=1280,1000");
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(Chromium.findDriver()))
                .usingAnyFreePort()
                .build();
        return new BrowserPage(new ChromeDriver(service, options), system);
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String pathAndQuery) {
        driver.get(system.baseUrl() + pathAndQuery);
    }

    /** Opens an absolute address, e.g. a link a client printed. */
    void openAddress(String address) {
        driver.get(address);
    }

    String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    /** The element's whole text, hidden parts included (the code box's lines). */
    String textContent(String id) {
        return driver.findElement(By.id(id)).getAttribute("textContent");
    }

    String state() {
        return driver.findElement(By.id("page")).getDomAttribute("data-state");
    }

    /** Waits until the page's state (main's data-state) is one of {@code states}; returns it. */
    String awaitState(Duration timeout, String... states) {
        Set<String> wanted = Set.of(states);
        return new WebDriverWait(driver, timeout)
                .withMessage(() -> "page state " + state() + " (" + text("message") + "), expected one of "
                        + List.of(states) + "\n" + system.output())
                .until(d -> wanted.contains(state()) ? state() : null);
    }

    /**
     * Every request the browser sent since the last call (or since it started), each as the JSON of what went over
     * the wire: DevTools' {@code Network.requestWillBeSent} request (its URL, headers and body, without the
     * {@code urlFragment} DevTools notes beside it and never sends) and the headers of
     * {@code Network.requestWillBeSentExtraInfo} (cookies and all, as sent).
     */
    List<String> requestsSent() throws IOException {
        List<String> sent = new ArrayList<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = Json.MAPPER.readTree(entry.getMessage()).path("message");
            JsonNode params = message.path("params");
            switch (message.path("method").asText()) {
                case "Network.requestWillBeSent" -> {
                    ObjectNode request = (ObjectNode) params.path("request").deepCopy();
                    request.remove("urlFragment");
                    sent.add(Json.MAPPER.writeValueAsString(request));
                }
                case "Network.requestWillBeSentExtraInfo" ->
                    sent.add(Json.MAPPER.writeValueAsString(Map.of("headers", params.path("headers"))));
                default -> {}
            }
        }
        return sent;
    }

    /** Into target/, and into docs/screenshots/ (README.md and docs/using.md show them) with -Dscreenshots.update=true. */
    void saveScreenshot(String name) throws IOException {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        Files.write(Path.of("target", "web-" + name).toAbsolutePath(), png);
        if (Boolean.getBoolean("screenshots.update")) {
            Files.createDirectories(DOCS_SCREENSHOTS);
            Files.write(DOCS_SCREENSHOTS.resolve(name), png);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
