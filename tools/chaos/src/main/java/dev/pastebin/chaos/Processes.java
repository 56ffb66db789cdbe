package dev.pastebin.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Running the project's scripts. */
final class Processes {

    private Processes() {}

    /** Runs a command to its end; its output goes to {@code log} (appended); fails unless it exits 0. */
    static void run(Path directory, Map<String, String> environment, Path log, Duration timeout, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(environment);
        Process process = pb.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    String.join(" ", command) + " did not finish within " + timeout + " (log: " + log + ")");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit status "
                    + process.exitValue() + " (log: " + log + ")");
        }
    }
}
