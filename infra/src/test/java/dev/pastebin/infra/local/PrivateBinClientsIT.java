package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrivateBin's command-line clients, unmodified, against the local API's {@code /pb/} ({@link LocalRuntimeProcess}:
 * the real template and function artifacts): pbincli 0.3.7 sends, reads, deletes, burns after reading, encrypts
 * with a password and carries an attachment; pbcli and the Go client {@code privatebin} (built by
 * infra/local/clients.sh where cargo and go are) create and read, and each client reads what the others wrote.
 * Each client reads once the paste is stored (PrivateBinApiIT proves the wait for a read arriving sooner).
 * docs/using.md shows these settings. With the web page: {@link PrivateBinPageClientsIT}.
 */
@RealServices
class PrivateBinClientsIT {

    private static final String TEXT = "Grüße, 世界! 100% + & = ✓\n\tindented line\nlast";
    private static LocalRuntimeProcess runtime;

    @TempDir
    Path dir;

    private PrivateBinCommandLine cli;

    @BeforeAll
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.shared();
    }

    @BeforeEach
    void commandLine() {
        cli = new PrivateBinCommandLine(runtime, dir);
    }

    @Test
    void pbincliSendsReadsAndDeletes() throws Exception {
        Map<String, Object> sent = cli.pbincliSend("-t", TEXT);

        PrivateBinCommandLine.Run got = cli.pbincliGet((String) sent.get("link"));
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, cli.savedText((String) sent.get("link")));

        PrivateBinCommandLine.Run deleted =
                cli.run(PrivateBinCommandLine.pbincli(), "delete", (String) sent.get("deletelink"));
        assertEquals(0, deleted.exit(), deleted.all());
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());
        PrivateBinCommandLine.Run gone = cli.pbincliGet((String) sent.get("link"));
        assertNotEquals(0, gone.exit());
        assertTrue(gone.err().contains("Document does not exist, has expired or has been deleted."), gone.all());
    }

    @Test
    void pbincliBurnsAfterReadingAndEncryptsWithAPasswordAndAnAttachment() throws Exception {
        String burnt = (String)
                cli.pbincliSend("-B", "-E", "10min", "-t", "read me once").get("link");
        assertEquals(0, cli.pbincliGet(burnt).exit());
        assertEquals("read me once", cli.savedText(burnt));
        PrivateBinCommandLine.Run second = cli.pbincliGet(burnt);
        assertNotEquals(0, second.exit(), "burnt after the first read");
        assertTrue(second.err().contains("Document does not exist"), second.all());

        // a password and an attachment, in one paste
        byte[] attachment = new byte[3000];
        new SecureRandom().nextBytes(attachment);
        Files.write(cli.dir().resolve("data.bin"), attachment);
        String locked = (String) cli.pbincliSend("-p", "s3cret pass", "-f", "data.bin", "-t", "behind a password")
                .get("link");
        assertNotEquals(0, cli.pbincliGet(locked).exit(), "no password, no text");
        Path out = Files.createDirectories(cli.dir().resolve("out-dir"));
        PrivateBinCommandLine.Run unlocked = cli.pbincliGet(locked, "-p", "s3cret pass", "-o", out.toString());
        assertEquals(0, unlocked.exit(), unlocked.all());
        String id = locked.substring(locked.indexOf('?') + 1, locked.indexOf('#'));
        assertEquals("behind a password", Files.readString(out.resolve("paste-" + id + ".txt")));
        assertArrayEquals(attachment, Files.readAllBytes(out.resolve("data.bin")));
    }

    @Test
    void pbcliAndPbincliReadEachOther() throws Exception {
        String pbcli = PrivateBinCommandLine.optional("pbcli/bin/pbcli", "pbcli with cargo");
        Path text = Files.writeString(cli.dir().resolve("text.txt"), TEXT);

        PrivateBinCommandLine.Run posted = cli.runIn(dir, text, pbcli, "--host", cli.server, "--json");
        assertEquals(0, posted.exit(), posted.all());
        @SuppressWarnings("unchecked")
        Map<String, Object> created = Json.MAPPER.readValue(posted.out(), Map.class);
        String link = (String) created.get("pasteurl");
        cli.awaitStored(link);
        PrivateBinCommandLine.Run got = cli.pbincliGet(link);
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, cli.savedText(link));
        // pbcli has no delete: pbincli deletes with the link pbcli printed
        PrivateBinCommandLine.Run deleted =
                cli.run(PrivateBinCommandLine.pbincli(), "delete", (String) created.get("deleteurl"));
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());

        String fromPbincli = (String) cli.pbincliSend("-t", TEXT).get("link");
        PrivateBinCommandLine.Run read = cli.run(pbcli, fromPbincli);
        assertEquals(0, read.exit(), read.all());
        assertEquals(TEXT, read.out());
    }

    @Test
    void theGoClientAndPbincliReadEachOther() throws Exception {
        String privatebin = PrivateBinCommandLine.optional("privatebin-go/bin/privatebin", "the Go client with go");
        Path config = Files.writeString(cli.dir().resolve("config.json"), """
                {"bin": [{"name": "", "host": "%s"}], "expire": "1day", "formatter": "plaintext", "gzip": true}
                """.formatted(cli.server));
        Path text = Files.writeString(cli.dir().resolve("text.txt"), TEXT);

        PrivateBinCommandLine.Run created =
                cli.runIn(dir, text, privatebin, "--config", config.toString(), "create", "--output", "json");
        assertEquals(0, created.exit(), created.all());
        @SuppressWarnings("unchecked")
        Map<String, Object> paste = Json.MAPPER.readValue(created.out(), Map.class);
        String link = (String) paste.get("paste_url");
        assertTrue(link.startsWith(cli.server + "?"), link);
        cli.awaitStored(link);
        PrivateBinCommandLine.Run got = cli.pbincliGet(link);
        assertEquals(0, got.exit(), got.all());
        assertEquals(TEXT, cli.savedText(link));
        PrivateBinCommandLine.Run deleted = cli.run(
                PrivateBinCommandLine.pbincli(),
                "delete",
                "-s",
                cli.server,
                "pasteid=" + paste.get("paste_id") + "&deletetoken=" + paste.get("delete_token"));
        assertTrue(deleted.out().contains("Paste successfully deleted!"), deleted.all());

        // its host check compares scheme and host with the configured URL, which has a path here: --insecure
        String fromPbincli = (String) cli.pbincliSend("-t", TEXT).get("link");
        PrivateBinCommandLine.Run shown =
                cli.run(privatebin, "--config", config.toString(), "show", "--insecure", fromPbincli);
        assertEquals(0, shown.exit(), shown.all());
        assertEquals(TEXT + "\n", shown.out());

        PrivateBinCommandLine.Run burnt =
                cli.runIn(dir, text, privatebin, "--config", config.toString(), "create", "--burn-after-reading");
        String burntLink = burnt.out().strip();
        assertTrue(burntLink.contains("#-"), "the Go client marks a burn link: " + burntLink);
        cli.awaitStored(burntLink);
        PrivateBinCommandLine.Run once =
                cli.run(privatebin, "--config", config.toString(), "show", "--insecure", "--confirm-burn", burntLink);
        assertEquals(TEXT + "\n", once.out(), once.all());
        PrivateBinCommandLine.Run twice =
                cli.run(privatebin, "--config", config.toString(), "show", "--insecure", "--confirm-burn", burntLink);
        assertNotEquals(0, twice.exit(), "burnt after the first read");
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
        String link = cli.server + "?" + code + "#2Xz8fK1m9Hc7";

        PrivateBinCommandLine.Run pbincli = cli.pbincliGet(link);
        assertNotEquals(0, pbincli.exit());
        assertTrue(
                pbincli.err().contains("Document is still being stored. Try again in a few seconds."), pbincli.all());
        Path goBinary = InstalledClients.tool("privatebin-go/bin/privatebin");
        if (Files.isExecutable(goBinary)) {
            PrivateBinCommandLine.Run go = cli.run(goBinary.toString(), "show", "--insecure", link);
            assertNotEquals(0, go.exit());
            assertTrue(go.err().contains("Document is still being stored."), go.all());
        }
        Path pbcliBinary = InstalledClients.tool("pbcli/bin/pbcli");
        if (Files.isExecutable(pbcliBinary)) {
            PrivateBinCommandLine.Run pbcli = cli.run(pbcliBinary.toString(), link);
            assertNotEquals(0, pbcli.exit());
            assertTrue(pbcli.all().contains("PasteNotFound"), pbcli.all());
        }
    }

    @Test
    void theJsonLdContextTellsPbincliToSendFormatTwo() throws Exception {
        PrivateBinCommandLine.Run context = cli.run("curl", "-sS", "--fail", cli.server + "?jsonld=paste");
        assertEquals(0, context.exit(), context.all());
        assertTrue(context.out().contains("\"@value\": 2"), context.out());
    }
}
