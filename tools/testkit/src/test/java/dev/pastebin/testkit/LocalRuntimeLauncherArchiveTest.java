package dev.pastebin.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's own class archive, around a stand-in for its JVM (a script that writes the archive its
 * {@code -XX:ArchiveClassesAtExit} names when it ends on a TERM, as the JVM does): the first runtime trains it, and
 * keeps it only when it ended on the TERM of {@code stop()}; the next maps it. That a real JVM maps what a real one
 * wrote is ClassArchivesIT's (module local-runtime), with the same flags.
 */
class LocalRuntimeLauncherArchiveTest {

    /** Prints its arguments; on TERM writes the archive it was asked to train (unless told to ignore the TERM). */
    private static final String STAND_IN = """
            #!/bin/sh
            out=""
            for a in "$@"; do case "$a" in -XX:ArchiveClassesAtExit=*) out="${a#*=}";; esac; done
            echo "args: $*"
            if [ -n "$IGNORE_TERM" ]; then trap '' TERM; else trap '[ -n "$out" ] && echo archive > "$out"; exit 0' TERM; fi
            echo "Local API listening on http://127.0.0.1:4321"
            while :; do sleep 0.1; done
            """;

    @TempDir
    Path root;

    @TempDir
    Path archives;

    @Test
    void theFirstRuntimeTrainsTheArchiveItKeepsOnItsTermAndTheNextMapsIt() throws Exception {
        LocalRuntimeLauncher first = launcher();
        first.start();
        assertTrue(first.output().contains("-XX:ArchiveClassesAtExit=" + archives), first.output());
        assertTrue(
                first.output().indexOf("-XX:ArchiveClassesAtExit")
                        < first.output().indexOf("-cp"),
                "a JVM flag, before the class path: " + first.output());
        assertEquals(List.of(), names("*.jsa"), "no archive while its trainer runs");
        assertTrue(first.stop(), "it ended on the TERM");
        List<String> kept = names("*.jsa");
        assertEquals(1, kept.size(), "the trainer's archive: " + names("*"));
        assertEquals(List.of(), names("*.training"));
        assertEquals(List.of(), names("*.part"));

        LocalRuntimeLauncher next = launcher();
        next.start();
        try {
            assertTrue(next.output().contains("-XX:SharedArchiveFile=" + archives.resolve(kept.get(0))), next.output());
        } finally {
            next.stop();
        }
    }

    @Test
    void aRuntimeKilledAfterItsGracePeriodKeepsNoArchiveAndTheNextTrains() throws Exception {
        LocalRuntimeLauncher killed =
                launcher().environment(java.util.Map.of("IGNORE_TERM", "1")).stopWithin(Duration.ofMillis(300));
        killed.start();
        assertFalse(killed.stop(), "killed, not ended on its TERM");
        assertEquals(List.of(), names("*.jsa"));
        assertEquals(List.of(), names("*.training"), "the lock is free for the next trainer");

        LocalRuntimeLauncher next = launcher();
        next.start();
        try {
            assertTrue(next.output().contains("-XX:ArchiveClassesAtExit="), next.output());
        } finally {
            next.stop();
        }
    }

    private LocalRuntimeLauncher launcher() throws Exception {
        Path java = root.resolve("java");
        if (!Files.exists(java)) {
            Files.writeString(java, STAND_IN);
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path jar = Files.writeString(root.resolve("runtime.jar"), "the runtime's classes");
        return new LocalRuntimeLauncher(
                        root,
                        List.of(java.toString(), "-cp", jar.toString(), LocalRuntimeLauncher.MAIN_CLASS),
                        List.of(),
                        List.of(jar))
                .classArchives(archives)
                .listeningWithin(Duration.ofSeconds(30));
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
