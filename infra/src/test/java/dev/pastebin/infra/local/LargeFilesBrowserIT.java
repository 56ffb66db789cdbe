package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A large paste through the web page, in Debian's headless Chromium against the whole local system
 * ({@link LocalRuntimeProcess}; its bucket notifying the upload queue of staged files and allowing the template's
 * CORS, as infra/local/bootstrap.py configures the bucket of {@code make run}): two files chosen in the page are
 * hashed there, declared in one create and PUT straight to S3 (LocalStack) with their progress bars; the paste's
 * page lists them with their sizes and links that download them byte for byte; a file over the limit is refused
 * with the API's message before any byte goes to S3.
 */
@RealServices
class LargeFilesBrowserIT {

    /** The file limit of this runtime: small enough that a refused file is cheap to make. */
    private static final int MAX_FILE_BYTES = 6 * 1024 * 1024;

    private static final Duration UPLOAD_WAIT = Duration.ofSeconds(90);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

    private static LocalRuntimeProcess system;
    private static BrowserPage page;
    private static ChromeDriver browser;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        system = LocalRuntimeProcess.start(
                "local-web-files",
                Map.of("Parameters", Map.of("PASTEBIN_LARGE_FILES_MAX_FILE_BYTES", String.valueOf(MAX_FILE_BYTES))),
                List.of());
        system.configureBucketAsTheTemplate();
        page = BrowserPage.start(system);
        browser = page.driver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (page != null) {
            page.close();
        }
        if (system != null) {
            system.close();
        }
    }

    @Test
    void twoFilesChosenInThePageAreUploadedListedAndDownloadedByteForByte() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024 + 17];
        new Random(43).nextBytes(big);
        byte[] small = "a small note\nwith two lines\n".getBytes(StandardCharsets.UTF_8);
        Path bigFile = Files.write(dir.resolve("big.bin"), big);
        Path smallFile = Files.write(dir.resolve("note.txt"), small);

        page.open("/");
        page.awaitState(Duration.ofSeconds(20), "editing");
        // the keyboard path: the <input type=file multiple>, given both files at once
        browser.findElement(By.id("files")).sendKeys(bigFile + "\n" + smallFile);
        assertEquals(2, fileRows().size());
        browser.findElement(By.id("create")).click();

        assertEquals("created", page.awaitState(UPLOAD_WAIT, "created", "error"), page.text("message"));
        for (WebElement row : fileRows()) {
            assertEquals("done", row.getDomAttribute("data-state"), row.getText());
            assertEquals("100", row.findElement(By.tagName("progress")).getDomProperty("value"), row.getText());
            assertEquals("done", row.findElement(By.className("file-state")).getText());
        }
        String address = browser.findElement(By.id("paste-link")).getDomProperty("href");

        page.openAddress(address);
        // 202 while the upload worker verifies the files, polled by the page
        assertEquals("ready", page.awaitState(UPLOAD_WAIT, "ready", "gone", "error", "timeout"), page.text("message"));
        List<WebElement> files = browser.findElements(By.cssSelector("#files-view li"));
        assertEquals(2, files.size());
        assertEquals(
                "big.bin " + "3.0 MiB (" + big.length + " bytes)", files.get(0).getText());
        assertEquals("note.txt " + small.length + " bytes", files.get(1).getText());
        assertTrue(browser.findElement(By.id("content")).getDomAttribute("hidden") != null, "no text view");

        // each link as the browser would follow it (its Accept prefers HTML): a redirect to S3, which sends the file
        assertArrayEquals(big, download(files.get(0)));
        assertArrayEquals(small, download(files.get(1)));
    }

    /** Files dropped on the box are chosen as the input's are: listed, in the input too, the text no longer asked for. */
    @Test
    void filesDroppedOnTheBoxAreChosen() {
        page.open("/");
        page.awaitState(Duration.ofSeconds(20), "editing");
        browser.executeScript("""
                const dropped = new DataTransfer();
                dropped.items.add(new File(['first'], 'one.txt', { type: 'text/plain' }));
                dropped.items.add(new File(['second'], 'two.bin'));
                const zone = document.getElementById('drop-zone');
                zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dropped, cancelable: true }));
                zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, cancelable: true }));""");

        assertEquals(
                List.of("one.txt", "two.bin"),
                fileRows().stream()
                        .map(row -> row.findElement(By.className("file-name")).getText())
                        .toList());
        assertEquals(2L, browser.executeScript("return document.getElementById('files').files.length"));
        assertEquals("chosen", browser.findElement(By.id("drop-zone")).getDomAttribute("data-state"));
        assertEquals(false, browser.executeScript("return document.getElementById('content').required"));
    }

    @Test
    void aFileOverTheLimitIsRefusedWithTheApisMessageBeforeAnyByteIsSent() throws Exception {
        Path tooLarge = Files.write(dir.resolve("too-large.bin"), new byte[MAX_FILE_BYTES + 1]);

        page.open("/");
        page.awaitState(Duration.ofSeconds(20), "editing");
        browser.findElement(By.id("files")).sendKeys(tooLarge.toString());
        browser.findElement(By.id("create")).click();

        assertEquals("error", page.awaitState(UPLOAD_WAIT, "error", "created"), page.text("message"));
        assertTrue(
                page.text("message").contains("larger than the limit of " + MAX_FILE_BYTES + " bytes"),
                page.text("message"));
        WebElement row = fileRows().getFirst();
        assertEquals("failed", row.getDomAttribute("data-state"));
        assertEquals("0", row.findElement(By.tagName("progress")).getDomProperty("value"));
        try (S3Client s3 = S3Client.create()) {
            assertEquals(
                    0,
                    s3.listObjectsV2(b -> b.bucket(system.bucket).prefix("staging/"))
                            .keyCount(),
                    "nothing reached the bucket");
        }
    }

    private static List<WebElement> fileRows() {
        return browser.findElements(By.cssSelector("#file-list li"));
    }

    private static byte[] download(WebElement file) throws Exception {
        String href = file.findElement(By.tagName("a")).getDomProperty("href");
        HttpResponse<byte[]> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(href))
                        .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode(), href);
        return response.body();
    }
}
