package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvVarsFileTest {

    @Test
    void sharedVariablesThenTheFunctionsOwn(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("env.json"), """
                {"Parameters": {"A": "shared", "B": "shared", "N": 3},
                 "OneFunction": {"B": "own"}}""");
        EnvVarsFile envVars = EnvVarsFile.read(file);
        assertEquals(Map.of("A", "shared", "B", "own", "N", "3"), envVars.forFunction("OneFunction"));
        assertEquals(Map.of("A", "shared", "B", "shared", "N", "3"), envVars.forFunction("OtherFunction"));
        assertEquals(Map.of(), EnvVarsFile.NONE.forFunction("OneFunction"));
    }

    @Test
    void aLaterFileWinsWithinItsSection(@TempDir Path dir) throws Exception {
        Path run = Files.writeString(dir.resolve("run.json"), """
                {"Parameters": {"URL": "jdbc:postgresql://db", "RATE": "100"},
                 "OneFunction": {"LEVEL": "INFO"}}""");
        Path mine = Files.writeString(dir.resolve("mine.json"), """
                {"Parameters": {"RATE": "30"}, "OtherFunction": {"LEVEL": "DEBUG"}}""");
        EnvVarsFile envVars = EnvVarsFile.read(List.of(run, mine));
        assertEquals(
                Map.of("URL", "jdbc:postgresql://db", "RATE", "30", "LEVEL", "INFO"),
                envVars.forFunction("OneFunction"));
        assertEquals(
                Map.of("URL", "jdbc:postgresql://db", "RATE", "30", "LEVEL", "DEBUG"),
                envVars.forFunction("OtherFunction"));
        assertEquals(Map.of(), EnvVarsFile.read(List.of()).forFunction("OneFunction"));
    }

    @Test
    void aMalformedFileIsAClearError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("env.json"), "{\"Parameters\": \"A=1\"}");
        var e = assertThrows(IllegalArgumentException.class, () -> EnvVarsFile.read(file));
        assertEquals(file + ": \"Parameters\" is not an object of variables", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EnvVarsFile.read(dir.resolve("missing.json")));
    }
}
