package dev.pastebin.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Turns a function's CodeUri into the task root its runtime loads classes from (LAMBDA_TASK_ROOT: the
 * directory itself plus {@code lib/*.jar}). A zip (what {@code sam deploy} uploads) is unpacked once into the
 * work directory, so the local process runs exactly the deployed bytes; a directory CodeUri is used as it is.
 */
final class FunctionArtifacts implements AutoCloseable {

    private final Path workDir;
    private final Map<String, Path> unpacked = new ConcurrentHashMap<>();

    FunctionArtifacts(Path workDir) {
        this.workDir = workDir;
    }

    Path taskRoot(FunctionDefinition function) {
        Path code = function.codeUri();
        if (Files.isDirectory(code)) {
            return code;
        }
        if (!Files.isRegularFile(code)) {
            throw new IllegalStateException("the artifact of " + function.logicalId() + " is missing: " + code
                    + " does not exist. Build it first: mvn -B -DskipTests package");
        }
        return unpacked.computeIfAbsent(function.logicalId(), id -> unzip(code, workDir.resolve(id)));
    }

    private static Path unzip(Path zip, Path into) {
        try {
            delete(into);
            Files.createDirectories(into);
            try (InputStream raw = Files.newInputStream(zip); ZipInputStream in = new ZipInputStream(raw)) {
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

    private static void delete(Path dir) throws IOException {
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
        for (Path p : unpacked.values()) {
            try {
                delete(p);
            } catch (IOException e) {
                // Best effort: the work directory is scratch space.
            }
        }
    }
}
