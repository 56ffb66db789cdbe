package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskRootsTest {

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void aDirectoryIsTheTaskRootItself(@TempDir Path dir) {
        try (var roots = new TaskRoots(dir.resolve("work"), QUIET)) {
            assertEquals(dir, roots.taskRoot("F", dir, null));
        }
    }

    @Test
    void aZipIsUnpackedIntoTheWorkDirectoryAndRemovedOnClose(@TempDir Path dir) throws Exception {
        Path zip = dir.resolve("function.zip");
        try (var out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("lib/a.jar"));
            out.write(new byte[] {1, 2, 3});
            out.closeEntry();
        }
        Path root;
        try (var roots = new TaskRoots(dir.resolve("work"), QUIET)) {
            root = roots.taskRoot("F", zip, null);
            assertEquals(dir.resolve("work/F"), root);
            assertTrue(Files.isRegularFile(root.resolve("lib/a.jar")));
        }
        assertTrue(Files.notExists(root));
    }

    @Test
    void aMakefileBuildRunsTheFunctionsTargetWithAnEmptyArtifactsDir(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("Makefile"),
                "build-F:\n\tls -A \"$(ARTIFACTS_DIR)\" > /dev/null\n"
                        + "\ttest -z \"$$(ls -A $(ARTIFACTS_DIR))\"\n\techo built > \"$(ARTIFACTS_DIR)/marker\"\n");
        try (var roots = new TaskRoots(dir.resolve("work"), QUIET)) {
            Path root = roots.taskRoot("F", dir, "makefile");
            assertEquals("built\n", Files.readString(root.resolve("marker")));
        }
    }

    @Test
    void layerJarsGoIntoEveryTaskRootsLibAndNeverIntoTheFunctionsOwnCode(@TempDir Path dir) throws Exception {
        Path layer = Files.writeString(dir.resolve("recorder.jar"), "layer");
        Path zip = dir.resolve("function.zip");
        try (var out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("lib/a.jar"));
            out.write(new byte[] {1, 2, 3});
            out.closeEntry();
        }
        Path code = Files.createDirectories(dir.resolve("code"));
        Files.writeString(code.resolve("Handler.class"), "classes");
        Files.writeString(dir.resolve("Makefile"), "build-M:\n\techo built > \"$(ARTIFACTS_DIR)/marker\"\n");
        try (var roots = new TaskRoots(dir.resolve("work"), QUIET, List.of(layer))) {
            Path unzipped = roots.taskRoot("Z", zip, null);
            assertTrue(Files.isRegularFile(unzipped.resolve("lib/a.jar")));
            assertEquals("layer", Files.readString(unzipped.resolve("lib/recorder.jar")));

            Path built = roots.taskRoot("M", dir, "makefile");
            assertEquals("layer", Files.readString(built.resolve("lib/recorder.jar")));

            // a directory CodeUri is copied into the work directory; the directory itself stays as it was
            Path copied = roots.taskRoot("D", code, null);
            assertEquals(dir.resolve("work/D"), copied);
            assertEquals("classes", Files.readString(copied.resolve("Handler.class")));
            assertEquals("layer", Files.readString(copied.resolve("lib/recorder.jar")));
            assertTrue(Files.notExists(code.resolve("lib")));
        }
        assertTrue(Files.notExists(dir.resolve("work/D")));
    }

    @Test
    void aFailedBuildAMissingArtifactAndAnUnknownBuildMethodAreClearErrors(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Makefile"), "build-F:\n\t@echo compiler says no; exit 2\n");
        try (var roots = new TaskRoots(dir.resolve("work"), QUIET)) {
            var failed = assertThrows(IllegalStateException.class, () -> roots.taskRoot("F", dir, "makefile"));
            assertTrue(failed.getMessage().contains("compiler says no"), failed.getMessage());
            var missing =
                    assertThrows(IllegalStateException.class, () -> roots.taskRoot("G", dir.resolve("no.zip"), null));
            assertTrue(missing.getMessage().contains("no.zip does not exist"), missing.getMessage());
            var unknown = assertThrows(IllegalArgumentException.class, () -> roots.taskRoot("H", dir, "esbuild"));
            assertTrue(unknown.getMessage().contains("esbuild"), unknown.getMessage());
        }
    }
}
