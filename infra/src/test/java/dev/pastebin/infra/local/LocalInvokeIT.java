package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code infra/local/invoke} as a user runs it, with the real template and function artifacts. */
@RealServices
class LocalInvokeIT {

    record Run(int exitCode, String stdout, String stderr) {}

    /** Runs infra/local/invoke against the database the tests use; package ran before the ITs, so it is built. */
    static Run invoke(String... args) throws IOException, InterruptedException {
        return invoke(Map.of(), args);
    }

    static Run invoke(Map<String, String> extraEnv, String... args) throws IOException, InterruptedException {
        return run(extraEnv, "infra/local/invoke", args);
    }

    /** Runs one of the repository's scripts (e.g. infra/admin) as infra/local/invoke is run: for the test database. */
    static Run run(Map<String, String> extraEnv, String script, String... args)
            throws IOException, InterruptedException {
        return run(extraEnv, Duration.ofSeconds(120), script, args);
    }

    /** As {@link #run(Map, String, String...)}, failing unless the script ends within {@code within}. */
    static Run run(Map<String, String> extraEnv, Duration within, String script, String... args)
            throws IOException, InterruptedException {
        Path root = TestSupport.repositoryRoot();
        List<String> command = new ArrayList<>(List.of(root.resolve(script).toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile());
        Map<String, String> env = pb.environment();
        // lib.sh's export_app_env builds DATASOURCES_DEFAULT_URL from PASTEBIN_DB_NAME: point it at the test database.
        String url =
                System.getenv().getOrDefault("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin");
        env.put("PASTEBIN_DB_NAME", url.substring(url.lastIndexOf('/') + 1));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.putAll(extraEnv);
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(within.toMillis(), TimeUnit.MILLISECONDS), "invoke finished within " + within);
        return new Run(p.exitValue(), out, err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void printsTheResponseOnStdoutAndTheLogsOnStderr() throws Exception {
        Run run = invoke("SweeperFunction", "infra/events/sweeper-scheduled.json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(Json.MAPPER.readTree(run.stdout()).isObject(), run.stdout());
        assertTrue(run.stderr().contains("[SweeperFunction] "), "the function's log: " + run.stderr());
    }

    @Test
    void aFunctionErrorPrintsTheErrorDocumentAndExitsNonZero() throws Exception {
        // An SQS event has no requestContext: the HTTP function throws, and the invoke reports its error.
        Run run = invoke("CreatePasteFunction", "infra/events/upload-job.json");
        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertEquals(
                "java.lang.NullPointerException",
                Json.MAPPER.readTree(run.stdout()).get("errorType").asText(),
                run.stdout());
    }

    @Test
    void anUnknownFunctionIsAClearError() throws Exception {
        Run run = invoke("NoSuchFunction", "infra/events/sweeper-scheduled.json");
        assertTrue(run.exitCode() != 0);
        assertTrue(run.stderr().contains("no AWS::Serverless::Function 'NoSuchFunction'"), run.stderr());
        assertEquals("", run.stdout());
    }
}
