package dev.pastebin.local.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The recording of every AWS call the functions make (module tools/call-recorder), for the test runs: with
 * {@code PASTEBIN_RECORD_CALLS_DIR} set, each function gets the recorder's jar as a layer (in its task root's
 * {@code lib/}) and the variable in its environment; without it, nothing of this happens.
 */
final class CallRecording {

    static final String DIRECTORY_VARIABLE = "PASTEBIN_RECORD_CALLS_DIR";

    /** Where the build copies the recorder's jar: target/call-recorder beside the runtime's jar. */
    static final String LIB = "call-recorder";

    private CallRecording() {}

    /** The recorder's jar in {@code lib}; fails, saying why, when there is none. */
    static Path jar(Path lib, Path recordCallsDir) {
        List<Path> jars = List.of();
        if (lib != null && Files.isDirectory(lib)) {
            try (var files = Files.list(lib)) {
                jars = files.filter(f -> f.getFileName().toString().matches("pastebin-call-recorder-.*\\.jar"))
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + lib, e);
            }
        }
        if (jars.size() != 1) {
            throw new IllegalStateException(DIRECTORY_VARIABLE + " is set (" + recordCallsDir + "), but "
                    + (jars.isEmpty()
                            ? "the call recorder is not built: no pastebin-call-recorder-*.jar in " + lib
                            : "there is more than one call recorder jar in " + lib + ": " + jars)
                    + ". Build it with the runtime: mvn -B -DskipTests -pl tools/local-runtime -am package"
                    + " (or unset " + DIRECTORY_VARIABLE + ")");
        }
        return jars.get(0);
    }
}
