package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * PrivateBin's command-line clients, unmodified, against the local API's {@code /pb/} ({@link LocalRuntimeProcess}:
 * the real template and function artifacts): pbincli 0.3.7 sends, reads, deletes, burns after reading, encrypts
 * with a password and carries an attachment; pbcli and the Go client {@code privatebin} (built by
 * infra/local/clients.sh where cargo and go are) create and read, and each client reads what the others wrote.
 * Each client reads once the paste is stored (PrivateBinApiIT proves the wait for a read arriving sooner).
 * docs/using.md shows these settings.
 */
@RealServices
class PrivateBinClientsIT {

    private static final Duration STORED_WITHIN = Duration.ofSeconds(90);
    private static final String TEXT = "Grüße, 世界! 100% + & = ✓\n\tindented line\nlast";
    private static final Duration PAGE_WAIT = Duration.ofSeconds(90);
    /** Typed into the page's form: no tab, which would move the focus. */
    private static final String PAGE_TEXT = "Grüße, 世界! 100% + & = ✓\n    indented line\nlast\n";

    private static final String SNIPPET =
            "import json\n\n\ndef load(path):\n    \"\"\"Reads a settings file.\"\"\"\n    with open(path) as f:\n"
                    + "        return json.load(f)\n";
    private static final Pattern PAGE_LINK = Pattern.compile("/pb/\\?([0-9A-Za-z]+)#(-?)([1-9A-HJ-NP-Za-km-z]+)$");
    private static LocalRuntimeProcess runtime;
    private static String server;
    private static BrowserPage page;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.start("pb-clients");
        server = runtime.uri("/pb/").toString();
        page = BrowserPage.start(runtime);
    }

    @AfterAll
    static void stop() throws Exception {
        if (page != null) {
            page.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    private record Run(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private Run run(String... command) throws IOException, InterruptedException {
        return runIn(dir, null, command);
    }

    private Run runIn(Path workDir, Path stdin, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectOutput(workDir.resolve("out").toFile())
                .redirectError(workDir.resolve("err").toFile());
        builder.redirectInput(
                stdin == null
                        ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                        : ProcessBuilder.Redirect.from(stdin.toFile()));
        builder.environment().put("HOME", dir.toString());
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Run(
                process.exitValue(),
                Files.readString(workDir.resolve("out")),
                Files.readString(workDir.resolve("err")));
    }

    private static String pbincli() {
        Path pbincli = InstalledClients.tool("pbincli-venv/bin/pbincli");
        assertTrue(Files.isExecutable(pbincli), pbincli + " is missing: run infra/local/clients.sh");
        return pbincli.toString();
    }

    private static String optional(String relative, String what) {
        Path tool = InstalledClients.tool(relative);
        Assumptions.assumeTrue(
                Files.isExecutable(tool),
                tool + " is missing: infra/local/clients.sh builds " + what
                        + " where this machine has it, and says so when it has not");
        return tool.toString();
    }

    /**
     * Waits until the link's paste is stored, asking the API's own read (202 while IN_PROGRESS; a read-once paste
     * answers its metadata, so nothing is burnt): a client's read then does not depend on how soon the upload worker
     * runs on a busy machine. PrivateBinApiIT proves, synchronised with the store, that a read arriving meanwhile
     * waits for it.
     */
    private static void awaitStored(String link) throws Exception {
        String id = link.substring(link.indexOf('?') + 1, link.contains("#") ? link.indexOf('#') : link.length());
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        HttpResponse<String> read;
        do {
            Thread.sleep(100);
            read = http.send(
                    HttpRequest.newBuilder(runtime.uri("/pastes/" + id)).build(), HttpResponse.BodyHandlers.ofString());
        } while (read.statusCode() == 202 && System.nanoTime() < deadline);
        assertEquals(200, read.statusCode(), read.body() + "\n" + runtime.output());
    }

    /** pbincli's {@code send --json}: {@code {"status":0,"result":{"id","password","deletetoken","link","deletelink"}}}. */
    private Map<String, Object> pbincliSend(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(pbincli(), "send", "--json", "-s", server));
        command.addAll(List.of(options));
        Run sent = run(command.toArray(String[]::new));
        assertEquals(0, sent.exit(), sent.all());
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>)
                Json.MAPPER.readValue(sent.out(), Map.class).get("result");
        String link = (String) result.get("link");
        assertTrue(
                link.matches("\\Q" + server + "?\\E[0-9A-Za-z]{11}#[1-9A-HJ-NP-Za-km-z]+"),
                "the paste's link: " + link);
        awaitStored(link);
        return result;
    }

    /** pbincli's {@code get}: the text it saved, or the failed run. */
    private Run pbincliGet(String link, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(pbincli(), "get", link));
        command.addAll(List.of(options));
        return run(command.toArray(String[]::new));
    }

    private String savedText(String link) throws IOException {
        String id = link.substring(link.indexOf('?') + 1, link.indexOf('#'));
        return Files.readString(dir.resolve("paste-" + id + ".txt"));
    }

    @Test
    void pbincliSendsReadsAndDeletes() throws Exception {
        Map<String, Object> sent = pbincliSend("-t", TEXT);

        Run got = pbincliGet((String) sent.get("link"));
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, savedText((String) sent.get("link")));

        Run deleted = run(pbincli(), "delete", (String) sent.get("deletelink"));
        assertEquals(0, deleted.exit(), deleted.all());
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());
        Run gone = pbincliGet((String) sent.get("link"));
        assertNotEquals(0, gone.exit());
        assertTrue(gone.err().contains("Document does not exist, has expired or has been deleted."), gone.all());
    }

    @Test
    void pbincliBurnsAfterReadingAndEncryptsWithAPasswordAndAnAttachment() throws Exception {
        String burnt =
                (String) pbincliSend("-B", "-E", "10min", "-t", "read me once").get("link");
        assertEquals(0, pbincliGet(burnt).exit());
        assertEquals("read me once", savedText(burnt));
        Run second = pbincliGet(burnt);
        assertNotEquals(0, second.exit(), "burnt after the first read");
        assertTrue(second.err().contains("Document does not exist"), second.all());

        // a password and an attachment, in one paste
        byte[] attachment = new byte[3000];
        new SecureRandom().nextBytes(attachment);
        Files.write(dir.resolve("data.bin"), attachment);
        String locked = (String) pbincliSend("-p", "s3cret pass", "-f", "data.bin", "-t", "behind a password")
                .get("link");
        assertNotEquals(0, pbincliGet(locked).exit(), "no password, no text");
        Path out = Files.createDirectories(dir.resolve("out-dir"));
        Run unlocked = pbincliGet(locked, "-p", "s3cret pass", "-o", out.toString());
        assertEquals(0, unlocked.exit(), unlocked.all());
        String id = locked.substring(locked.indexOf('?') + 1, locked.indexOf('#'));
        assertEquals("behind a password", Files.readString(out.resolve("paste-" + id + ".txt")));
        assertArrayEquals(attachment, Files.readAllBytes(out.resolve("data.bin")));
    }

    @Test
    void pbcliAndPbincliReadEachOther() throws Exception {
        String pbcli = optional("pbcli/bin/pbcli", "pbcli with cargo");
        Path text = Files.writeString(dir.resolve("text.txt"), TEXT);

        Run posted = runIn(dir, text, pbcli, "--host", server, "--json");
        assertEquals(0, posted.exit(), posted.all());
        @SuppressWarnings("unchecked")
        Map<String, Object> created = Json.MAPPER.readValue(posted.out(), Map.class);
        String link = (String) created.get("pasteurl");
        awaitStored(link);
        Run got = pbincliGet(link);
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, savedText(link));
        // pbcli has no delete: pbincli deletes with the link pbcli printed
        Run deleted = run(pbincli(), "delete", (String) created.get("deleteurl"));
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());

        String fromPbincli = (String) pbincliSend("-t", TEXT).get("link");
        Run read = run(pbcli, fromPbincli);
        assertEquals(0, read.exit(), read.all());
        assertEquals(TEXT, read.out());
    }

    @Test
    void theGoClientAndPbincliReadEachOther() throws Exception {
        String privatebin = optional("privatebin-go/bin/privatebin", "the Go client with go");
        Path config = Files.writeString(dir.resolve("config.json"), """
                {"bin": [{"name": "", "host": "%s"}], "expire": "1day", "formatter": "plaintext", "gzip": true}
                """.formatted(server));
        Path text = Files.writeString(dir.resolve("text.txt"), TEXT);

        Run created = runIn(dir, text, privatebin, "--config", config.toString(), "create", "--output", "json");
        assertEquals(0, created.exit(), created.all());
        @SuppressWarnings("unchecked")
        Map<String, Object> paste = Json.MAPPER.readValue(created.out(), Map.class);
        String link = (String) paste.get("paste_url");
        assertTrue(link.startsWith(server + "?"), link);
        awaitStored(link);
        Run got = pbincliGet(link);
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, savedText(link));
        Run deleted = run(
                pbincli(),
                "delete",
                "-s",
                server,
                "pasteid=" + paste.get("paste_id") + "&deletetoken=" + paste.get("delete_token"));
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());

        // its host check compares scheme and host with the configured URL, which has a path here: --insecure
        String fromPbincli = (String) pbincliSend("-t", TEXT).get("link");
        Run shown = run(privatebin, "--config", config.toString(), "show", "--insecure", fromPbincli);
        assertEquals(0, shown.exit(), shown.all());
        assertEquals(TEXT + "\n", shown.out());

        Run burnt = runIn(dir, text, privatebin, "--config", config.toString(), "create", "--burn-after-reading");
        String burntLink = burnt.out().strip();
        assertTrue(burntLink.contains("#-"), "the Go client marks a burn link: " + burntLink);
        awaitStored(burntLink);
        Run once = run(privatebin, "--config", config.toString(), "show", "--insecure", "--confirm-burn", burntLink);
        assertEquals(TEXT + "\n", once.out(), once.all());
        Run twice = run(privatebin, "--config", config.toString(), "show", "--insecure", "--confirm-burn", burntLink);
        assertNotEquals(0, twice.exit(), "burnt after the first read");
    }

    // ---- the web page, as one more client ---------------------------------------------------------------------

    /**
     * A paste encrypted in the page (WebCrypto) is read by pbincli, and with its password; the page opens its own
     * link too. Neither the key nor the password is in any request the browser sent (DevTools' record of what went
     * over the wire) nor anywhere in what the server's functions logged.
     */
    @Test
    void aPasteEncryptedInThePageIsReadByPbincliAndNoRequestCarriesItsKey() throws Exception {
        page.requestsSent(); // only this test's requests from here on
        String plain = createEncryptedInThePage(PAGE_TEXT, "", false);
        Run got = pbincliGet(plain);
        assertEquals(0, got.exit(), got.all());
        assertEquals(PAGE_TEXT, savedText(plain));

        String locked = createEncryptedInThePage("behind a page password\n", "correct horse", false);
        assertNotEquals(0, pbincliGet(locked).exit(), "no password, no text");
        Run unlocked = pbincliGet(locked, "-p", "correct horse");
        assertEquals(0, unlocked.exit(), unlocked.all());
        assertEquals("behind a page password\n", savedText(locked));

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
        String link = (String) pbincliSend("-E", "1hour", "-t", TEXT).get("link");
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

        String snippet = (String) pbincliSend("-t", SNIPPET).get("link");
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
                pbincliSend("-p", "s3cret pass", "-t", "behind a password").get("link");
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

        Run afterwards = pbincliGet(link.replace("#-", "#")); // the same key, without the page's confirm mark
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
        String link = (String) pbincliSend("-B", "-t", "burn only when asked").get("link");
        page.openAddress(link);
        assertEquals(
                "read-once",
                page.awaitState(PAGE_WAIT, "read-once", "revealed", "ready", "gone", "error"),
                page.text("message"));

        Run got = pbincliGet(link);
        assertEquals(0, got.exit(), "the page's visit burnt nothing: " + got.all());
        assertEquals("burn only when asked", savedText(link));
        page.openAddress(link);
        assertEquals(
                "gone", page.awaitState(PAGE_WAIT, "gone", "read-once", "revealed", "error"), page.text("message"));
    }

    /** Creates a paste with the page's "Encrypt in the browser"; returns its link once the paste is stored. */
    private static String createEncryptedInThePage(String text, String password, boolean burn) throws Exception {
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
        awaitStored(link);
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

    /**
     * A paste still being stored long after its create (its upload retrying or held), which the function answers at
     * once in words: what each client shows. The row is inserted IN_PROGRESS, ten minutes old, with no job, so it
     * stays so; the link's key is any key (the clients stop before decrypting). pbincli and the Go client print the server's message; pbcli reads any refusal of a read as its own
     * "paste not found".
     */
    @Test
    void aPasteStillBeingStoredIsReportedByEachClient() throws Exception {
        String alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        SecureRandom random = new SecureRandom();
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            code.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        try (var context = ApplicationContext.run();
                Connection connection = DriverManager.getConnection(
                        context.getEnvironment().getRequiredProperty("datasources.default.url", String.class),
                        context.getEnvironment().getRequiredProperty("datasources.default.username", String.class),
                        context.getEnvironment().getRequiredProperty("datasources.default.password", String.class));
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO pastes (short_code, status, content_sha256, size_bytes, created_at) "
                                + "VALUES (?, 'IN_PROGRESS', repeat('0', 64), 10, now() - interval '10 minutes')")) {
            insert.setString(1, code.toString());
            insert.executeUpdate();
        }
        String link = server + "?" + code + "#2Xz8fK1m9Hc7";

        Run pbincli = pbincliGet(link);
        assertNotEquals(0, pbincli.exit());
        assertTrue(
                pbincli.err().contains("Document is still being stored. Try again in a few seconds."), pbincli.all());
        Path goBinary = InstalledClients.tool("privatebin-go/bin/privatebin");
        if (Files.isExecutable(goBinary)) {
            Run go = run(goBinary.toString(), "show", "--insecure", link);
            assertNotEquals(0, go.exit());
            assertTrue(go.err().contains("Document is still being stored."), go.all());
        }
        Path pbcliBinary = InstalledClients.tool("pbcli/bin/pbcli");
        if (Files.isExecutable(pbcliBinary)) {
            Run pbcli = run(pbcliBinary.toString(), link);
            assertNotEquals(0, pbcli.exit());
            assertTrue(pbcli.all().contains("PasteNotFound"), pbcli.all());
        }
    }

    @Test
    void theJsonLdContextTellsPbincliToSendFormatTwo() throws Exception {
        Run context = run("curl", "-sS", "--fail", server + "?jsonld=paste");
        assertEquals(0, context.exit(), context.all());
        assertTrue(context.out().contains("\"@value\": 2"), context.out());
    }
}
