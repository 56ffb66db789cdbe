package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page as one more PrivateBin client, in Chromium ({@link BrowserPage}), against pbincli 0.3.7 on the same
 * local API's {@code /pb/}: what the page encrypts pbincli reads, with its password, and no request carries the key;
 * what pbincli sends the page opens and decrypts; burn after reading holds across the two. The clients with each
 * other: {@link PrivateBinClientsIT}.
 */
@RealServices
class PrivateBinPageClientsIT {

    private static final String TEXT = "Grüße, 世界! 100% + & = ✓\n\tindented line\nlast";
    private static final Duration PAGE_WAIT = Duration.ofSeconds(90);
    /** Typed into the page's form: no tab, which would move the focus. */
    private static final String PAGE_TEXT = "Grüße, 世界! 100% + & = ✓\n    indented line\nlast\n";

    private static final String SNIPPET =
            "import json\n\n\ndef load(path):\n    \"\"\"Reads a settings file.\"\"\"\n    with open(path) as f:\n"
                    + "        return json.load(f)\n";
    private static final Pattern PAGE_LINK = Pattern.compile("/pb/\\?([0-9A-Za-z]+)#(-?)([1-9A-HJ-NP-Za-km-z]+)$");
    private static LocalRuntimeProcess runtime;
    private static BrowserPage page;

    @TempDir
    Path dir;

    private PrivateBinCommandLine cli;

    @BeforeAll
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.shared();
        page = BrowserPage.start(runtime);
    }

    @AfterAll
    static void stop() throws Exception {
        if (page != null) {
            page.close();
        }
    }

    @BeforeEach
    void commandLine() {
        cli = new PrivateBinCommandLine(runtime, dir);
    }

    /**
     * A paste encrypted in the page (WebCrypto) is read by pbincli, and with its password; the page opens its own
     * link too. Neither the key nor the password is in any request the browser sent (DevTools' record of what went
     * over the wire) nor anywhere in what the server's functions logged.
     */
    @Test
    void aPasteEncryptedInThePageIsReadByPbincliAndNoRequestCarriesItsKey() throws Exception {
        page.requestsSent(); // only this test's requests from here on
        String plain = createEncryptedInThePage(PAGE_TEXT, "", false);
        PrivateBinCommandLine.Run got = cli.pbincliGet(plain);
        assertEquals(0, got.exit(), got.all());
        assertEquals(PAGE_TEXT, cli.savedText(plain));

        String locked = createEncryptedInThePage("behind a page password\n", "correct horse", false);
        assertNotEquals(0, cli.pbincliGet(locked).exit(), "no password, no text");
        PrivateBinCommandLine.Run unlocked = cli.pbincliGet(locked, "-p", "correct horse");
        assertEquals(0, unlocked.exit(), unlocked.all());
        assertEquals("behind a page password\n", cli.savedText(locked));

        page.openAddress(plain);
        assertEquals("ready", page.awaitState(PAGE_WAIT, "ready", "password", "gone", "error"), page.text("message"));
        assertEquals(PAGE_TEXT, page.textContent("content"));

        List<String> requests = page.requestsSent();
        assertTrue(
                requests.stream().anyMatch(r -> r.contains("/pb/?pasteid=")), "the page read the paste: " + requests);
        for (String secret : List.of(key(plain), key(locked), "correct horse")) {
            assertTrue(requests.stream().noneMatch(r -> r.contains(secret)), secret + " was sent: " + requests);
            assertFalse(runtime.output().contains(secret), secret + " reached the server's functions");
        }
    }

    /** A paste sent by pbincli opens from its link in the page and decrypts there, with the password it asks for. */
    @Test
    void aPasteSentByPbincliOpensAndDecryptsInThePage() throws Exception {
        Instant sent = Instant.now();
        String link = (String) cli.pbincliSend("-E", "1hour", "-t", TEXT).get("link");
        page.openAddress(link);
        assertEquals("ready", page.awaitState(PAGE_WAIT, "ready", "password", "gone", "error"), page.text("message"));
        Instant shown = Instant.now();
        assertTrue(
                page.driver().getCurrentUrl().contains("/p/"),
                "a browser is sent to the page: " + page.driver().getCurrentUrl());
        assertEquals(TEXT, page.textContent("content"));
        // the expiry the server counts down (meta.time_to_live), shown to the second in the browser's locale
        assertNotEquals("never", page.text("expires"), "an hour's paste expires");
        Instant expires = Instant.ofEpochMilli(
                (Long) page.driver().executeScript("return new Date(arguments[0]).getTime()", page.text("expires")));
        assertTrue(
                !expires.isBefore(sent.plus(Duration.ofHours(1)).minusSeconds(2))
                        && !expires.isAfter(shown.plus(Duration.ofHours(1)).plusSeconds(1)),
                "expires " + page.text("expires") + ", an hour after " + sent);

        String snippet = (String) cli.pbincliSend("-t", SNIPPET).get("link");
        page.openAddress(snippet);
        assertEquals("ready", page.awaitState(PAGE_WAIT, "ready", "password", "gone", "error"), page.text("message"));
        new WebDriverWait(page.driver(), PAGE_WAIT)
                .until(d -> "done".equals(d.findElement(By.id("content")).getDomAttribute("data-highlighting")));
        page.saveScreenshot("encrypted.png");

        // line links: after the key, and a click on a number keeps the key in front of its line
        page.openAddress(snippet + "&L4-L5");
        assertEquals("ready", page.awaitState(PAGE_WAIT, "ready", "password", "gone", "error"), page.text("message"));
        // the highlighter's answer replaces the lines: a click before it may land on a line no longer there
        new WebDriverWait(page.driver(), PAGE_WAIT)
                .until(d -> "done".equals(d.findElement(By.id("content")).getDomAttribute("data-highlighting")));
        assertEquals(List.of("L4", "L5"), selectedLines());
        page.driver().findElement(By.cssSelector("#L6 > a.ln")).click();
        assertTrue(
                page.driver().getCurrentUrl().endsWith("#" + key(snippet) + "&L6"),
                page.driver().getCurrentUrl());
        assertEquals(List.of("L6"), selectedLines());

        String locked = (String)
                cli.pbincliSend("-p", "s3cret pass", "-t", "behind a password").get("link");
        page.openAddress(locked);
        assertEquals("password", page.awaitState(PAGE_WAIT, "password", "ready", "gone", "error"));
        page.driver().findElement(By.id("paste-password")).sendKeys("not it\n");
        new WebDriverWait(page.driver(), PAGE_WAIT)
                .until(d -> page.text("message").startsWith("Wrong password"));
        page.driver().findElement(By.id("paste-password")).clear();
        page.driver().findElement(By.id("paste-password")).sendKeys("s3cret pass\n");
        assertEquals("ready", page.awaitState(PAGE_WAIT, "ready", "gone", "error"), page.text("message"));
        assertEquals("behind a password", page.textContent("content"));
    }

    /**
     * Burn after reading from the page: opening the link reads nothing until the reader confirms (a preview cannot
     * consume it); the confirmed read shows it once, and then neither the page nor pbincli finds it.
     */
    @Test
    void aBurnAfterReadingPasteFromThePageIsConsumedOnce() throws Exception {
        String link = createEncryptedInThePage("once from the page\n", "", true);
        page.openAddress(link);
        assertEquals("read-once", page.awaitState(PAGE_WAIT, "read-once", "ready", "gone", "error"));
        page.openAddress(link); // a second look before confirming still finds it
        assertEquals("read-once", page.awaitState(PAGE_WAIT, "read-once", "ready", "gone", "error"));

        page.driver().findElement(By.id("reveal")).click();
        assertEquals("revealed", page.awaitState(PAGE_WAIT, "revealed", "gone", "error"), page.text("message"));
        assertEquals("once from the page\n", page.textContent("content"));

        PrivateBinCommandLine.Run afterwards =
                cli.pbincliGet(link.replace("#-", "#")); // the same key, without the page's confirm mark
        assertNotEquals(0, afterwards.exit(), "burnt by the page's read");
        assertTrue(afterwards.err().contains("Document does not exist"), afterwards.all());
        page.openAddress(link);
        assertEquals(
                "gone", page.awaitState(PAGE_WAIT, "gone", "read-once", "revealed", "error"), page.text("message"));
    }

    /**
     * A burn-after-reading link as pbincli prints it, without the {@code -} of the page's own: the page asks the server
     * whether reading burns the paste, and reads it only once the reader confirms. A visit that does not confirm
     * (a preview running the page's script) leaves it to pbincli.
     */
    @Test
    void aBurnLinkPrintedByPbincliIsReadInThePageOnlyOnceConfirmed() throws Exception {
        String link =
                (String) cli.pbincliSend("-B", "-t", "burn only when asked").get("link");
        page.openAddress(link);
        assertEquals(
                "read-once",
                page.awaitState(PAGE_WAIT, "read-once", "revealed", "ready", "gone", "error"),
                page.text("message"));

        PrivateBinCommandLine.Run got = cli.pbincliGet(link);
        assertEquals(0, got.exit(), "the page's visit burnt nothing: " + got.all());
        assertEquals("burn only when asked", cli.savedText(link));
        page.openAddress(link);
        assertEquals(
                "gone", page.awaitState(PAGE_WAIT, "gone", "read-once", "revealed", "error"), page.text("message"));
    }

    /** Creates a paste with the page's "Encrypt in the browser"; returns its link once the paste is stored. */
    private String createEncryptedInThePage(String text, String password, boolean burn) throws Exception {
        page.open("/");
        page.awaitState(PAGE_WAIT, "editing");
        page.driver().findElement(By.id("content")).sendKeys(text);
        page.driver().findElement(By.cssSelector("label[for=encrypt]")).click();
        if (!password.isEmpty()) {
            page.driver().findElement(By.id("password")).sendKeys(password);
        }
        if (burn) {
            page.driver().findElement(By.cssSelector("label[for=read-once]")).click();
        }
        page.driver().findElement(By.id("create")).click();
        assertEquals("created", page.awaitState(PAGE_WAIT, "created", "error"), page.text("message"));
        String link = page.driver().findElement(By.id("paste-link")).getAttribute("href");
        Matcher parts = PAGE_LINK.matcher(link);
        assertTrue(parts.find(), link);
        assertEquals(burn ? "-" : "", parts.group(2), "a burn link starts its fragment with '-': " + link);
        cli.awaitStored(link);
        return link;
    }

    private static List<String> selectedLines() {
        return page.driver().findElements(By.cssSelector("#content .line.selected")).stream()
                .map(e -> e.getDomAttribute("id"))
                .toList();
    }

    /** The base58 key in a link's fragment. */
    private static String key(String link) {
        return link.substring(link.indexOf('#') + 1).replaceFirst("^-", "");
    }
}
