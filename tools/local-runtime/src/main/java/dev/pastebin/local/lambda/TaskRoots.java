package dev.pastebin.local.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Turns a function's code into the task root its runtime loads classes from (LAMBDA_TASK_ROOT: the directory
 * itself plus {@code lib/*.jar}), the way {@code sam build} and {@code sam deploy} treat a CodeUri:
 * <ul>
 *   <li>with Metadata.BuildMethod {@code makefile}: {@code make -C <CodeUri> build-<LogicalId>
 *       ARTIFACTS_DIR=<empty dir>}, and that directory is the task root;</li>
 *   <li>a zip (what {@code sam deploy} uploads) is unpacked, so the process runs exactly the deployed bytes;</li>
 *   <li>a directory is used as it is.</li>
 * </ul>
 * Built and unpacked task roots live in the work directory, one per function, until {@link #close()}.
 *
 * <p>Layer jars, when given, are added to every task root's {@code lib/}: Lambda puts a layer's jars in
 * {@code /opt/java/lib}, which the runtime interface client's class loader reads after the task root's {@code lib/}
 * (a path it hard-codes, and not this machine's to write). They go only into task roots of the work directory: a
 * directory CodeUri is then copied there first, so no function's code or artifact is ever changed.
 */
public final class TaskRoots implements AutoCloseable {

    public static final String MAKEFILE_BUILD = "makefile";

    private final Path workDir;
    private final PrintStream log;
    private final List<Path> layerJars;
    private final Map<String, Path> made = new ConcurrentHashMap<>();

    public TaskRoots(Path workDir, PrintStream log) {
        this(workDir, log, List.of());
    }

    /** @param layerJars jars every task root gets in its {@code lib/}, as a layer's {@code java/lib} would add them */
    public TaskRoots(Path workDir, PrintStream log, List<Path> layerJars) {
        this.workDir = workDir;
        this.log = log;
        this.layerJars = List.copyOf(layerJars);
    }

    /**
     * @param functionName the function's logical id (names the make target and the work directory)
     * @param codeUri      the CodeUri, resolved against the template's directory
     * @param buildMethod  Metadata.BuildMethod, or null
     */
    public Path taskRoot(String functionName, Path codeUri, String buildMethod) {
        if (MAKEFILE_BUILD.equals(buildMethod)) {
            return made.computeIfAbsent(functionName, id -> withLayers(make(id, codeUri, workDir.resolve(id))));
        }
        if (buildMethod != null) {
            throw new IllegalArgumentException(functionName + ": BuildMethod " + buildMethod
                    + " is not supported locally; use a prebuilt artifact (CodeUri of a zip or directory) or makefile");
        }
        if (Files.isDirectory(codeUri)) {
            return layerJars.isEmpty()
                    ? codeUri
                    : made.computeIfAbsent(functionName, id -> withLayers(copy(codeUri, workDir.resolve(id))));
        }
        if (!Files.isRegularFile(codeUri)) {
            throw new IllegalStateException("the artifact of " + functionName + " is missing: " + codeUri
                    + " does not exist. Build it first (e.g. mvn -B -DskipTests package)");
        }
        return made.computeIfAbsent(functionName, id -> withLayers(unzip(codeUri, workDir.resolve(id))));
    }

    /** {@code taskRoot} with the layer jars in its {@code lib/}. */
    private Path withLayers(Path taskRoot) {
        try {
            for (Path jar : layerJars) {
                Path lib = Files.createDirectories(taskRoot.resolve("lib"));
                Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            return taskRoot;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add the layer jars " + layerJars + " to " + taskRoot, e);
        }
    }

    /** Copies the directory {@code from} into {@code into}, which is emptied first. */
    private static Path copy(Path from, Path into) {
        try {
            deleteTree(into);
            try (Stream<Path> walk = Files.walk(from)) {
                for (Path p : walk.toList()) {
                    Path target = into.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return into;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " into " + into, e);
        }
    }

    private Path make(String functionName, Path sourceDir, Path artifactsDir) {
        List<String> command = List.of(
                "make",
                "-C",
                sourceDir.toString(),
                "build-" + functionName,
                "ARTIFACTS_DIR=" + artifactsDir.toAbsolutePath());
        try {
            deleteTree(artifactsDir);
            Files.createDirectories(artifactsDir);
            Process make = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (make.waitFor() != 0) {
                throw new IllegalStateException(functionName + ": " + String.join(" ", command)
                        + " failed (exit status " + make.exitValue() + "):\n" + output);
            }
            output.lines().forEach(line -> log.println("[make " + functionName + "] " + line));
            return artifactsDir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building " + functionName, e);
        }
    }

    /** Unpacks {@code zip} into {@code into}, which is emptied first. */
    public static Path unzip(Path zip, Path into) {
        try {
            deleteTree(into);
            Files.createDirectories(into);
            try (InputStream raw = Files.newInputStream(zip);
                    ZipInputStream in = new ZipInputStream(raw)) {
                for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                    Path target = into.resolve(e.getName()).normalize();
                    if (!target.startsWith(into)) {
                        throw new IOException("zip entry outside the task root: " + e.getName());
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return into;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + zip + " into " + into, e);
        }
    }

    /** Deletes {@code dir} and everything under it, if it exists. */
    public static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Override
    public void close() {
        for (Path p : made.values()) {
            try {
                deleteTree(p);
            } catch (IOException e) {
                // Best effort: the work directory is scratch space.
            }
        }
    }
}
