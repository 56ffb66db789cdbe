package dev.pastebin.local.lambda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Class-data-sharing archives of the function JVMs, for runs that start the same functions many times (the test
 * command starts some 150), and of other JVMs started as often (the test kit's launcher keeps one for the runtime's
 * own JVM): a JVM that maps an archive of the classes an earlier one of the same function loaded
 * starts on about a third less CPU. Lambda's managed runtime cannot map such an archive (it must come from the very
 * JVM build that maps it), so only runtimes given a directory use them, never {@code make run}.
 *
 * <p>The first environment of a function whose archive is missing trains it: its JVM writes the classes it loaded
 * at exit ({@code -XX:ArchiveClassesAtExit}) to a file of its own, which is renamed to the archive once the process
 * has ended on a TERM, so no JVM ever maps a half-written archive. One environment trains a function at a time (a
 * lock file beside the archive, across runtimes); the others run without an archive meanwhile. An archive is named
 * after the function, its JVM and its jars' names and sizes; one that no longer fits (a rebuilt jar) is refused
 * by the JVM itself, class by class, and the JVM runs on without it.
 */
public final class ClassArchives {

    /** A trainer whose lock is older than this died without its TERM: another environment may train. */
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(10);

    /** Without these the JVM prints CDS's notes (a class it cannot archive, an archive it refuses) into the log. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private final Path directory;

    public ClassArchives(Path directory) {
        this.directory = directory.toAbsolutePath();
    }

    public Path directory() {
        return directory;
    }

    /** How the next process of this function uses the archives: maps one, trains one, or neither. */
    public Use use(FunctionConfiguration function, Path javaExecutable) {
        return use(function.name(), fingerprint(function, javaExecutable));
    }

    /**
     * As {@link #use(FunctionConfiguration, Path)} for another JVM the run starts many times (the local runtime's
     * own, which each end-to-end test class starts): {@code name} and what its archive is valid for, its JVM, main
     * class and class path.
     */
    public Use use(String name, Path javaExecutable, String mainClass, List<Path> classPath) {
        return use(name, fingerprint(javaExecutable, mainClass, classPath));
    }

    private Use use(String jvm, String fingerprint) {
        String name = jvm + "-" + fingerprint;
        Path archive = directory.resolve(name + ".jsa");
        if (Files.isRegularFile(archive)) {
            return new Use(concat(List.of("-XX:SharedArchiveFile=" + archive)), null);
        }
        Path lock = directory.resolve(name + ".training");
        if (!claim(lock)) {
            return Use.NONE;
        }
        Path written = directory.resolve(name + "." + UUID.randomUUID() + ".jsa.part");
        return new Use(concat(List.of("-XX:ArchiveClassesAtExit=" + written)), new Training(written, archive, lock));
    }

    private boolean claim(Path lock) {
        try {
            Files.createDirectories(directory);
            try {
                Files.createFile(lock);
                return true;
            } catch (FileAlreadyExistsException held) {
                if (Files.getLastModifiedTime(lock)
                        .toInstant()
                        .isAfter(Instant.now().minus(ABANDONED_AFTER))) {
                    return false;
                }
                Files.setLastModifiedTime(lock, FileTime.from(Instant.now()));
                return true;
            }
        } catch (IOException e) {
            // no archive is no failure: the function runs as it would without the directory
            return false;
        }
    }

    private static List<String> concat(List<String> flags) {
        return Stream.concat(flags.stream(), QUIET.stream()).toList();
    }

    /** The function's JVM, handler and jars (names and sizes), hashed: what its archive is valid for. */
    static String fingerprint(FunctionConfiguration function, Path javaExecutable) {
        Path lib = function.taskRoot().resolve("lib");
        if (!Files.isDirectory(lib)) {
            return fingerprint(javaExecutable, function.handler(), List.of());
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return fingerprint(javaExecutable, function.handler(), jars.sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JVM, its entry point and its jars (names and sizes, in class path order), hashed. */
    static String fingerprint(Path javaExecutable, String entryPoint, List<Path> jars) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(
                    (javaExecutable.toAbsolutePath() + "\n" + entryPoint + "\n").getBytes(StandardCharsets.UTF_8));
            for (Path jar : jars) {
                digest.update((jar.getFileName() + " " + (Files.isRegularFile(jar) ? Files.size(jar) : -1) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param flags    the JVM flags for it
     * @param training non-null when this process writes the archive at its exit
     */
    public record Use(List<String> flags, Training training) {

        public static final Use NONE = new Use(List.of(), null);

        public Use {
            flags = List.copyOf(flags);
        }
    }

    /** An archive being written by one process: kept if that process ended on its TERM, dropped otherwise. */
    public record Training(Path written, Path archive, Path lock) {

        /** The process ended after a TERM: what it wrote becomes the archive. */
        public void ended() {
            try {
                if (Files.isRegularFile(written) && Files.size(written) > 0) {
                    Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                // another trainer's archive, or none: the next process trains again
            } finally {
                abandoned();
            }
        }

        /** The process was killed or never started: nothing it wrote is kept, and another may train. */
        public void abandoned() {
            try {
                Files.deleteIfExists(written);
                Files.deleteIfExists(lock);
            } catch (IOException e) {
                // a stale lock only delays the next training by ABANDONED_AFTER
            }
        }
    }
}
