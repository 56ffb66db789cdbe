package dev.pastebin.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Running the project's scripts, and waiting for what a process writes to its log. */
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

    /** The first match of {@code pattern} in the log file, waiting for it while the process lives. */
    static Matcher awaitLine(Path log, Pattern pattern, Duration timeout, Process process)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            if (Files.exists(log)) {
                Matcher m = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (m.find()) {
                    return m;
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the process ended before writing " + pattern + " (log: " + log + ")");
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("no " + pattern + " within " + timeout + " (log: " + log + ")");
            }
            Thread.sleep(250);
        }
    }
}
