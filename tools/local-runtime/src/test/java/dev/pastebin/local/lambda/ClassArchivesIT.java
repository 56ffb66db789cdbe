package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.TestSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class archives with real function JVMs: the first process of a function writes the archive when it ends on the
 * runtime's TERM, and the next process maps it. Both run with {@code -Xshare:on}, with which a JVM that cannot map
 * its archive does not start at all.
 */
class ClassArchivesIT {

    private static final byte[] EVENT = "{}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path archives;

    @Test
    void theNextProcessOfAFunctionMapsTheArchiveTheFirstWroteAtItsEnd() throws Exception {
        JavaRuntime runtime = new JavaRuntime(
                        Path.of(System.getProperty("java.home"), "bin", "java"),
                        TestSupport.ricLib(),
                        "us-east-1",
                        "000000000000",
                        Map.of())
                .withInitTimeout(TestSupport.INIT_TIMEOUT)
                .withClassArchives(new ClassArchives(archives));
        FunctionConfiguration function = new FunctionConfiguration(
                "PlainFunction",
                "dev.pastebin.local.testfn.PlainHandler::handleRequest",
                "java25",
                Path.of("target/test-classes").toAbsolutePath(),
                512,
                Duration.ofSeconds(60),
                Map.of(),
                List.of("-Xshare:on"));

        var first = new ExecutionEnvironment(function, runtime, System.err, (name, line) -> {});
        try {
            InvocationResult result = first.invoke(EVENT);
            assertFalse(result.failed(), result.payloadText());
            assertEquals(List.of(), names("*.jsa"), "no archive while its trainer runs");
            assertEquals(1, names("*.training").size(), "the trainer holds the lock");
            assertNull(runtime.classArchiveUse(function).training(), "one trainer at a time");
        } finally {
            first.close();
        }
        assertEquals(1, names("*.jsa").size(), "the trainer's archive, once it ended: " + names("*"));
        assertEquals(List.of(), names("*.training"));
        assertEquals(List.of(), names("*.part"));

        ClassArchives.Use next = runtime.classArchiveUse(function);
        assertNull(next.training());
        assertTrue(
                next.flags()
                        .contains("-XX:SharedArchiveFile="
                                + archives.resolve(names("*.jsa").get(0))),
                next.flags().toString());
        var second = new ExecutionEnvironment(function, runtime, System.err, (name, line) -> {});
        try {
            InvocationResult result = second.invoke(EVENT);
            assertFalse(result.failed(), "a JVM started with -Xshare:on and the archive: " + result.payloadText());
            assertTrue(result.payloadText().contains("world"), result.payloadText());
        } finally {
            second.close();
        }
    }

    private List<String> names(String glob) throws Exception {
        try (Stream<Path> files = Files.list(archives)) {
            var matcher = archives.getFileSystem().getPathMatcher("glob:" + glob);
            return files.map(Path::getFileName)
                    .filter(matcher::matches)
                    .map(Path::toString)
                    .sorted()
                    .toList();
        }
    }
}
