package dev.pastebin.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.Service;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher around stand-ins for the run command: shell scripts that print what the runtime prints. */
class LocalRuntimeLauncherTest {

    private static final String LISTENS = """
            trap 'echo stopping; exit 0' TERM
            echo "args: $*"
            echo "db: $PASTEBIN_DB_NAME; queue url: ${PASTEBIN_UPLOAD_QUEUE_URL:-unset}; s3: ${AWS_ENDPOINT_URL_S3:-unset}"
            echo "Local API listening on http://127.0.0.1:4321 (Ctrl-C stops everything)"
            sleep 0.3
            echo "Ready: 5 function(s) initialised 300 ms after start"
            while :; do sleep 0.1; done
            """;

    @TempDir
    Path root;

    @Test
    void theRunCommandStartsWithoutBuildingWithTheRunsVariablesAndItsApiIsWhereItSaysItListens() throws Exception {
        runCommand(LISTENS);
        Path log = root.resolve("runtime.log");
        try (FaultProxy s3 = new FaultProxy(Service.S3, 0, URI.create("http://127.0.0.1:9"));
                var runtime = LocalRuntimeLauncher.runCommand(root)
                        .port(0)
                        .environment(RunNames.of("herd", "abc").environment())
                        .through(s3)
                        .logTo(log)
                        .readyWithin(Duration.ofSeconds(30))
                        .start()) {
            assertEquals(URI.create("http://127.0.0.1:4321"), runtime.api());
            assertEquals(4321, runtime.port());
            String output = runtime.output();
            assertTrue(output.contains("args: --no-build --port 0\n"), output);
            assertTrue(output.contains("db: herd_abc; queue url: unset; s3: " + s3.endpoint() + "\n"), output);
            assertTrue(output.contains("Ready: 5 function(s)"), "start() waited for the ready line:\n" + output);
            assertEquals(Files.readString(log), output);

            assertTrue(runtime.stop(), "it ended on the TERM");
            assertFalse(runtime.process().isAlive());
        }
    }

    @Test
    void variablesNamedToBeUnsetDoNotReachTheRuntime() throws Exception {
        runCommand(LISTENS.replace("$PASTEBIN_DB_NAME", "${HOME:-no home}"));
        try (var runtime = new LocalRuntimeLauncher(root, List.of("infra/local/run.sh"), List.of("HOME"))
                .environment(Map.of("PASTEBIN_UPLOAD_QUEUE_URL", "http://elsewhere/queue"))
                .start()) {
            assertTrue(runtime.output().contains("db: no home; queue url: http://elsewhere/queue;"), runtime.output());
        }
    }

    @Test
    void withoutALogFileTheOutputIsKeptAndEchoedLineByLine() throws Exception {
        runCommand(LISTENS);
        var echoed = new ByteArrayOutputStream();
        try (var runtime = LocalRuntimeLauncher.runCommand(root)
                .port(4321)
                .echoTo(new PrintStream(echoed, true, StandardCharsets.UTF_8), "[runtime] ")
                .start()) {
            runtime.awaitOutput(LocalRuntimeLauncher.READY, Duration.ofSeconds(30));
            assertTrue(runtime.output().startsWith("args: --no-build --port 4321\n"), runtime.output());
            assertTrue(
                    echoed.toString(StandardCharsets.UTF_8).startsWith("[runtime] args: --no-build --port 4321\n"),
                    echoed.toString(StandardCharsets.UTF_8));
            assertEquals(null, runtime.log());
        }
    }

    @Test
    void aRuntimeThatExitsBeforeListeningFailsTheStartWithWhatItPrinted() throws Exception {
        runCommand("echo 'ERROR the template is broken'; exit 3");
        var launcher = LocalRuntimeLauncher.runCommand(root);

        var e = assertThrows(IllegalStateException.class, launcher::start);

        assertTrue(e.getMessage().contains("exited before printing"), e.getMessage());
        assertTrue(e.getMessage().contains("exit status 3"), e.getMessage());
        assertTrue(e.getMessage().contains("ERROR the template is broken"), e.getMessage());
    }

    @Test
    void aRuntimeThatNeverListensIsStoppedAtTheDeadline() throws Exception {
        runCommand("while :; do sleep 0.1; done");
        var launcher = LocalRuntimeLauncher.runCommand(root)
                .logTo(root.resolve("runtime.log"))
                .listeningWithin(Duration.ofMillis(500));

        var e = assertThrows(IllegalStateException.class, launcher::start);

        assertTrue(e.getMessage().contains("printed no " + LocalRuntimeLauncher.LISTENING), e.getMessage());
        assertTrue(e.getMessage().contains("log: " + root.resolve("runtime.log")), e.getMessage());
        assertFalse(launcher.process().isAlive());
    }

    @Test
    void aRuntimeThatIgnoresTheTermIsKilledAfterTheGracePeriod() throws Exception {
        runCommand(LISTENS.replace("trap 'echo stopping; exit 0' TERM", "trap '' TERM"));
        var runtime = LocalRuntimeLauncher.runCommand(root)
                .stopWithin(Duration.ofMillis(300))
                .start();

        assertFalse(runtime.stop());
        assertTrue(runtime.process().waitFor(10, java.util.concurrent.TimeUnit.SECONDS));
    }

    @Test
    void theJavaLaunchRunsTheBuiltRuntimeOnTheTemplateWithTheRunsNames() throws IOException {
        Path target = Files.createDirectories(root.resolve("tools/local-runtime/target"));
        Files.createFile(target.resolve("pastebin-local-runtime-0.1.0-SNAPSHOT-tests.jar"));
        Path jar = Files.createFile(target.resolve("pastebin-local-runtime-0.1.0-SNAPSHOT.jar"));
        Files.writeString(target.resolve("runtime-classpath.txt"), "/m2/a.jar:/m2/b.jar\n");

        List<String> line = LocalRuntimeLauncher.java(root, Path.of("/tmp/e2e-env-vars.json"))
                .port(41234)
                .physicalNames("q-1", "q-dlq-1", "b-1")
                .arguments(List.of("--schedule-interval", "3s"))
                .commandLine();

        assertEquals(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        jar + ":/m2/a.jar:/m2/b.jar",
                        "dev.pastebin.local.cli.LocalRuntime",
                        "--template",
                        "infra/template.yaml",
                        "--dashboard",
                        "infra/local/dashboard.json",
                        "--env-vars",
                        "/tmp/e2e-env-vars.json",
                        "--port",
                        "41234",
                        "--physical-name",
                        "UploadQueue=q-1,UploadDeadLetterQueue=q-dlq-1,PasteBucket=b-1",
                        "--schedule-interval",
                        "3s"),
                line);
    }

    @Test
    void theJavaLaunchNeedsTheBuiltRuntime() throws IOException {
        Files.createDirectories(root.resolve("tools/local-runtime/target"));

        var e = assertThrows(
                IllegalStateException.class, () -> LocalRuntimeLauncher.java(root, Path.of("env-vars.json")));

        assertTrue(e.getMessage().contains("the local runtime is not built"), e.getMessage());
    }

    private void runCommand(String body) throws IOException {
        Path script = Files.createDirectories(root.resolve("infra/local")).resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
