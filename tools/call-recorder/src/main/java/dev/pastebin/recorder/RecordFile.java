package dev.pastebin.recorder;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One process's record file, {@code <dir>/<function>-<pid>.jsonl}, shared by every interceptor the SDK creates (one
 * per client). Each line is one {@code write} of the whole line to a file opened for appending, under this object's
 * lock: lines of concurrent calls never interleave, and a line is on disk when the call returns.
 */
final class RecordFile {

    private static final Map<Path, RecordFile> FILES = new ConcurrentHashMap<>();
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private final Path path;
    private FileOutputStream out;

    private RecordFile(Path path) {
        this.path = path;
    }

    static RecordFile of(Path directory, String function, long pid) {
        Path path = directory.toAbsolutePath().resolve(safe(function) + "-" + pid + ".jsonl");
        return FILES.computeIfAbsent(path, RecordFile::new);
    }

    Path path() {
        return path;
    }

    /** Appends {@code line} and a newline; on failure says so once on stderr and returns. */
    synchronized void append(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (out == null) {
                Files.createDirectories(path.getParent());
                out = new FileOutputStream(path.toFile(), true);
            }
            out.write(bytes);
        } catch (IOException | RuntimeException e) {
            reportOnce(e);
        }
    }

    /** The first recording failure of this process, on stderr; later ones are silent. */
    static void reportOnce(Throwable failure) {
        if (REPORTED.compareAndSet(false, true)) {
            System.err.println("call recorder: cannot record AWS calls (" + failure
                    + "); the calls go on unrecorded, and further failures are not reported");
        }
    }

    /** A file-name-safe form of the function's name. */
    private static String safe(String function) {
        return function.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
