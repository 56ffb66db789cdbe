package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.Json;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * PrivateBin's command-line clients as a test drives them against one local runtime's {@code /pb/}: each run in a
 * directory of the test's own (its HOME too, so no client reads this machine's settings), pbincli's send and get,
 * and the wait until a link's paste is stored. Shared by the tests of the clients with each other
 * ({@link PrivateBinClientsIT}) and with the web page ({@link PrivateBinPageClientsIT}).
 */
final class PrivateBinCommandLine {

    private static final Duration STORED_WITHIN = Duration.ofSeconds(90);

    private final LocalRuntimeProcess runtime;
    private final Path dir;
    final String server;

    PrivateBinCommandLine(LocalRuntimeProcess runtime, Path dir) {
        this.runtime = runtime;
        this.dir = dir;
        this.server = runtime.uri("/pb/").toString();
    }

    record Run(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    Path dir() {
        return dir;
    }

    Run run(String... command) throws IOException, InterruptedException {
        return runIn(dir, null, command);
    }

    Run runIn(Path workDir, Path stdin, String... command) throws IOException, InterruptedException {
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

    static String pbincli() {
        Path pbincli = InstalledClients.tool("pbincli-venv/bin/pbincli");
        assertTrue(Files.isExecutable(pbincli), pbincli + " is missing: run infra/local/clients.sh");
        return pbincli.toString();
    }

    static String optional(String relative, String what) {
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
    void awaitStored(String link) throws Exception {
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
    Map<String, Object> pbincliSend(String... options) throws Exception {
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
    Run pbincliGet(String link, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(pbincli(), "get", link));
        command.addAll(List.of(options));
        return run(command.toArray(String[]::new));
    }

    String savedText(String link) throws IOException {
        String id = link.substring(link.indexOf('?') + 1, link.indexOf('#'));
        return Files.readString(dir.resolve("paste-" + id + ".txt"));
    }
}
