package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineFlagsTest {

    @Test
    void flagsBecomeSettingsAndTheRestArePositional() {
        var parsed = CommandLineFlags.parse(
                new String[] {
                    "ReadFunction",
                    "--port",
                    "3001",
                    "--schedule-interval=60s",
                    "--lazy",
                    "--template",
                    "infra/template.yaml",
                    "--env-vars",
                    "env.json",
                    "--env-vars=mine.json",
                    "--parameter-overrides",
                    "A=1 B=two",
                    "--parameter-overrides=ParameterKey=C,ParameterValue=3",
                    "--physical-name",
                    "Queue=q1,Bucket=b1",
                    "--physical-name",
                    "Dlq=q2",
                    "--instances",
                    "3",
                    "--dashboard",
                    "panels.json",
                    "event.json"
                },
                Map.of("AWS_REGION", "eu-west-1"));
        RuntimeSettings s = parsed.settings();
        assertEquals(3001, s.port());
        assertEquals(Duration.ofSeconds(60), s.scheduleInterval());
        assertFalse(s.eager());
        assertEquals(Path.of("infra/template.yaml"), s.template());
        assertEquals(List.of(Path.of("env.json"), Path.of("mine.json")), s.envVars());
        assertEquals(Map.of("A", "1", "B", "two", "C", "3"), s.parameterOverrides());
        assertEquals(Map.of("Queue", "q1", "Bucket", "b1", "Dlq", "q2"), s.physicalNames());
        assertEquals(3, s.instances());
        assertEquals(Path.of("panels.json"), s.dashboard());
        assertEquals("eu-west-1", s.region());
        assertEquals(List.of("ReadFunction", "event.json"), parsed.positional());
    }

    @Test
    void defaults() {
        RuntimeSettings s = CommandLineFlags.parse(new String[0], Map.of()).settings();
        assertEquals("127.0.0.1", s.host());
        assertEquals(3000, s.port());
        assertEquals("us-east-1", s.region());
        assertEquals(1, s.instances());
        assertEquals(List.of(), s.envVars());
        assertNull(s.workDir());
        assertNull(s.dashboard());
        assertEquals("ric-lib", s.ricLib().getFileName().toString());
        assertEquals(Duration.ofSeconds(60), s.initTimeout());
    }

    @Test
    void theInitTimeoutComesFromTheFlagElseTheEnvironment() {
        var fromEnvironment = Map.of("PASTEBIN_LOCAL_INIT_TIMEOUT", "5m");
        assertEquals(
                Duration.ofMinutes(5),
                CommandLineFlags.parse(new String[0], fromEnvironment)
                        .settings()
                        .initTimeout());
        assertEquals(
                Duration.ofSeconds(90),
                CommandLineFlags.parse(new String[] {"--init-timeout", "90s"}, fromEnvironment)
                        .settings()
                        .initTimeout());
        assertThrows(
                IllegalArgumentException.class,
                () -> CommandLineFlags.parse(new String[] {"--init-timeout", "0s"}, Map.of()));
    }

    @Test
    void recordingComesFromTheEnvironmentAsAnAbsoluteDirectory() {
        RuntimeSettings off = CommandLineFlags.parse(new String[0], Map.of()).settings();
        assertNull(off.recordCallsDir());
        assertEquals("call-recorder", off.callRecorderLib().getFileName().toString());
        RuntimeSettings on = CommandLineFlags.parse(
                        new String[0], Map.of("PASTEBIN_RECORD_CALLS_DIR", "infra/target/recorded-calls"))
                .settings();
        assertEquals(Path.of("infra/target/recorded-calls").toAbsolutePath(), on.recordCallsDir());
    }

    @Test
    void classArchivesComeFromTheFlagElseTheEnvironmentAndAreOffAsOnLambda() {
        assertNull(CommandLineFlags.parse(new String[0], Map.of()).settings().classArchives());
        var fromEnvironment = Map.of("PASTEBIN_LOCAL_CLASS_ARCHIVES", "infra/target/class-archives");
        assertEquals(
                Path.of("infra/target/class-archives").toAbsolutePath(),
                CommandLineFlags.parse(new String[0], fromEnvironment)
                        .settings()
                        .classArchives());
        assertEquals(
                Path.of("archives").toAbsolutePath(),
                CommandLineFlags.parse(new String[] {"--class-archives", "archives"}, fromEnvironment)
                        .settings()
                        .classArchives());
    }

    @Test
    void recordingWithoutTheRecordersJarFailsAtStartSayingWhy(@TempDir Path dir) throws Exception {
        Path calls = dir.resolve("calls");
        var missing = assertThrows(IllegalStateException.class, () -> CallRecording.jar(dir.resolve("nothing"), calls));
        assertTrue(missing.getMessage().contains("PASTEBIN_RECORD_CALLS_DIR is set"), missing.getMessage());
        assertTrue(missing.getMessage().contains("not built"), missing.getMessage());

        Path jar = Files.writeString(dir.resolve("pastebin-call-recorder-0.1.0-SNAPSHOT.jar"), "");
        assertEquals(jar, CallRecording.jar(dir, calls));
    }

    @Test
    void durations() {
        assertEquals(Duration.ofMillis(500), CommandLineFlags.duration("500ms"));
        assertEquals(Duration.ofMinutes(5), CommandLineFlags.duration("5m"));
        assertEquals(Duration.ofHours(1), CommandLineFlags.duration("PT1H"));
    }

    @Test
    void unknownOrIncompleteFlagsAreClearErrors() {
        assertThrows(
                IllegalArgumentException.class, () -> CommandLineFlags.parse(new String[] {"--prot", "1"}, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> CommandLineFlags.parse(new String[] {"--port"}, Map.of()));
        assertThrows(
                IllegalArgumentException.class,
                () -> CommandLineFlags.parse(new String[] {"--physical-name", "nameonly"}, Map.of()));
        assertThrows(
                IllegalArgumentException.class,
                () -> CommandLineFlags.parse(new String[] {"--instances", "0"}, Map.of()));
    }
}
