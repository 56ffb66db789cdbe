package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Existing command-line clients, unmodified, against the local API ({@link LocalRuntimeProcess}: the real
 * template and function artifacts): the real {@code curl -F file=@…}, Debian's real {@code pastebinit}, the haste
 * protocol's {@code haste} and rustypaste's {@code rpaste} (installed by infra/local/clients.sh) post a paste and
 * print its URL; {@code curl URL} then gives the exact
 * bytes once the upload function has stored them, and a browser opening it is sent to the web page. docs/using.md, "Use it from your terminal", shows these settings.
 */
@RealServices
class CommandLineClientsIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration STORED_WITHIN = Duration.ofSeconds(90);
    private static LocalRuntimeProcess runtime;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        runtime = LocalRuntimeProcess.shared();
    }

    private record Run(int exit, String out, String err) {}

    private Run run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Run(process.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }

    /** What {@code curl URL} prints once the paste is stored: 202 (with Retry-After) until then, never an empty 200. */
    private static byte[] readOnceStored(String url) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        while (true) {
            HttpResponse<byte[]> read = HTTP.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Accept", "*/*")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            statuses.add(read.statusCode());
            if (read.statusCode() != 202 || System.nanoTime() > deadline) {
                assertEquals(200, read.statusCode(), "statuses while polling: " + statuses + "\n" + runtime.output());
                return read.body();
            }
            assertTrue(read.headers().firstValue("Retry-After").isPresent(), "202 says when to come back");
            Thread.sleep(250);
        }
    }

    private static String pastedUrl(Run run) {
        assertEquals(0, run.exit(), run.out() + run.err());
        String url = run.out().strip();
        assertTrue(
                url.matches("\\Q" + runtime.uri("/pastes/") + "\\E[0-9A-Za-z]{11}"),
                "one URL: " + run.out() + run.err());
        return url;
    }

    @Test
    void curlFormFilePartAsRustypasteAnd0x0TakeIt() throws Exception {
        byte[] content = "Grüße, 世界! 100% + & = ✓\r\n\tcolumns\n".getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("notes.txt"), content);

        Run posted = run(
                Map.of(),
                "curl",
                "-sS",
                "--fail-with-body",
                "-D",
                "headers",
                "-F",
                "file=@notes.txt",
                runtime.uri("/").toString());

        String url = pastedUrl(posted);
        String headers = Files.readString(dir.resolve("headers")).toLowerCase(Locale.ROOT);
        assertTrue(headers.matches("(?s).*\r\nx-token: \\S+\r\n.*"), "the deletion token in X-Token: " + headers);
        assertArrayEquals(content, readOnceStored(url));
        // curl itself, Accept */*, gets the same bytes
        Run read = run(Map.of(), "curl", "-sS", "--fail", "-o", "read", url);
        assertEquals(0, read.exit(), read.err());
        assertArrayEquals(content, Files.readAllBytes(dir.resolve("read")));
        // and a browser opening the same URL gets the paste's web page
        HttpResponse<String> browser = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String code = url.substring(url.lastIndexOf('/') + 1);
        assertEquals(303, browser.statusCode(), browser.body());
        assertEquals("/p/" + code, browser.headers().firstValue("Location").orElseThrow());
        HttpResponse<String> page = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/p/" + code))
                        .header("Accept", "text/html")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(
                page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"),
                page.headers().toString());
    }

    @Test
    void pastebinitPostsItsFormAndPrintsTheUrl() throws Exception {
        // the configuration docs/using.md shows, for this API's host
        String host = runtime.uri("/").getAuthority();
        Path confDir = Files.createDirectories(dir.resolve("config").resolve("pastebin.d"));
        Files.writeString(confDir.resolve("pastebin-local.conf"), """
                [pastebin]
                basename = %s
                post_page = pastes
                paste_regexp = (.*)

                [format]
                content = content
                """.formatted(host));
        String text = "from pastebinit: 100% + & = ✓\n\tindented";
        Files.writeString(dir.resolve("notes.txt"), text + "\n");

        InstalledClients.awaitInstall();
        Run posted =
                run(Map.of("XDG_CONFIG_HOME", dir.resolve("config").toString()), "pastebinit", "-b", host, "notes.txt");

        // pastebinit strips trailing white space before it posts
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), readOnceStored(pastedUrl(posted)));
    }

    /**
     * The haste protocol's client (PyPI's haste-client, the {@code haste} command) with docs/using.md's setting in
     * {@code ~/.hastec}: it posts to /documents and prints {@code <server>/<key>}; that URL gives curl the bytes and a
     * browser the page, and {@code haste -r} prints the raw URL.
     */
    @Test
    void theHasteClientPostsADocumentAndItsUrlGivesTheBytes() throws Exception {
        Path haste = InstalledClients.tool("haste-venv/bin/haste");
        assertTrue(Files.isExecutable(haste), haste + " is missing: run infra/local/clients.sh");
        String server = runtime.uri("/").toString().replaceAll("/$", "");
        Files.writeString(dir.resolve(".hastec"), "server_url = " + server + "\n");
        String text = "from haste: 100% + & = ✓\n\tindented";
        Files.writeString(dir.resolve("notes.py"), text + "\n\n");
        Map<String, String> home = Map.of("HOME", dir.toString());

        Run posted = run(home, haste.toString(), "notes.py");

        assertEquals(0, posted.exit(), posted.out() + posted.err());
        String url = posted.out().strip();
        assertTrue(url.matches("\\Q" + server + "/\\E[0-9A-Za-z]{11}"), "one URL: " + posted.out() + posted.err());
        // the client strips the text before it posts
        byte[] expected = text.getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, readOnceStored(url));
        Run read = run(Map.of(), "curl", "-sS", "--fail", "-o", "read", url);
        assertEquals(0, read.exit(), read.err());
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("read")));
        String key = url.substring(url.lastIndexOf('/') + 1);
        HttpResponse<String> browser = HTTP.send(
                HttpRequest.newBuilder(URI.create(url + ".py"))
                        .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(303, browser.statusCode(), browser.body());
        assertEquals("/p/" + key, browser.headers().firstValue("Location").orElseThrow());
        HttpResponse<String> document = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/documents/" + key)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, document.statusCode(), document.body());
        assertTrue(document.body().contains("\"key\":\"" + key + "\""), document.body());

        Run raw = run(home, haste.toString(), "-r", "notes.py");
        assertEquals(0, raw.exit(), raw.out() + raw.err());
        String rawUrl = raw.out().strip();
        assertTrue(rawUrl.matches("\\Q" + server + "/raw/\\E[0-9A-Za-z]{11}"), "the raw URL: " + raw.out() + raw.err());
        assertArrayEquals(expected, readOnceStored(rawUrl));
    }

    /**
     * rustypaste's client ({@code rpaste}, built from crates.io by clients.sh where cargo is) with docs/using.md's
     * config.toml: it posts the file part to the server's root and prints the URL, which gives curl the bytes;
     * {@code -o} makes the paste read once and {@code -e} sends the expiry.
     */
    @Test
    void rustypastesClientPostsAFileAndPrintsTheUrl() throws Exception {
        Path rpaste = InstalledClients.tool("rustypaste-cli/bin/rpaste");
        Assumptions.assumeTrue(
                Files.isExecutable(rpaste),
                rpaste + " is missing: infra/local/clients.sh builds it "
                        + "with cargo, and says so when this machine has none");
        Files.writeString(dir.resolve("config.toml"), """
                [server]
                address = "%s"

                [paste]
                oneshot = false
                """.formatted(
                        runtime.uri("/").toString().replaceAll("/$", "")));
        byte[] content = "from rpaste: 100% + & = ✓\r\n\tcolumns\n".getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("notes.txt"), content);

        Run posted = run(Map.of(), rpaste.toString(), "-c", "config.toml", "notes.txt");

        assertArrayEquals(content, readOnceStored(pastedUrl(posted)));

        Run oneshot = run(Map.of(), rpaste.toString(), "-c", "config.toml", "-o", "-e", "10min", "notes.txt");
        String url = pastedUrl(oneshot);
        String code = url.substring(url.lastIndexOf('/') + 1);
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        HttpResponse<String> metadata;
        do {
            Thread.sleep(250);
            metadata = HTTP.send(
                    HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } while (metadata.statusCode() == 202 && System.nanoTime() < deadline);
        assertEquals(200, metadata.statusCode(), metadata.body());
        assertEquals(
                "true",
                metadata.headers().firstValue("Paste-Read-Once").orElse(null),
                "oneshot is read once: " + metadata.body());
        assertTrue(
                metadata.body().matches("(?s).*\"expiresAt\":\"[^\"]+\".*"),
                "expire: 10min gave it an expiry: " + metadata.body());
        HttpResponse<byte[]> revealed = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/pastes/" + code + "/reveal"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, revealed.statusCode());
        assertArrayEquals(content, revealed.body());
    }

    @Test
    void aRefusedFormIsOnePlainLineCurlPrints() throws Exception {
        Files.write(dir.resolve("empty.txt"), new byte[0]);

        Run posted = run(
                Map.of(),
                "curl",
                "-sS",
                "-w",
                "%{http_code}",
                "-F",
                "file=@empty.txt",
                runtime.uri("/").toString());

        assertEquals("The paste is empty\n400", posted.out(), posted.err());
    }
}
