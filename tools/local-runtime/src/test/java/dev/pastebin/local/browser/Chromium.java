package dev.pastebin.local.browser;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, headless, for the browser tests: found (and installed when missing) by
 * infra/local/chromium.sh; without it a test fails and says why, it never skips. Driven either from its
 * command line ({@link #dumpDom}, {@link #screenshot}) or through chromedriver ({@link #findDriver}).
 * Paths: its {@code target/} is the module's, the script is found in the repository above it.
 */
public final class Chromium {

    /** How every test runs it: no GPU, no sandbox (root in CI), /tmp rather than a small /dev/shm. */
    public static final List<String> HEADLESS_FLAGS =
            List.of("--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run");

    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path SCRIPT = repositoryFile("infra/local/chromium.sh");
    // Enough virtual time for a page's first fetches and its drawing.
    private static final String VIRTUAL_TIME_BUDGET = "--virtual-time-budget=8000";

    private Chromium() {}

    /** {@code path} in the repository: the nearest directory upwards from the module's that holds it. */
    private static Path repositoryFile(String path) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(path))) {
                return dir.resolve(path);
            }
        }
        throw new IllegalStateException("no " + path + " above " + Path.of("").toAbsolutePath());
    }

    /** The chromium command. */
    public static String find() throws IOException, InterruptedException {
        return locate("chromium-find.log");
    }

    /** The chromedriver command of the same version (Debian's chromium-driver). */
    public static String findDriver() throws IOException, InterruptedException {
        return locate("chromedriver-find.log", "--driver");
    }

    public static String dumpDom(String chromium, String url) throws IOException, InterruptedException {
        return run(chromium, List.of(VIRTUAL_TIME_BUDGET, "--dump-dom", url));
    }

    public static void screenshot(String chromium, String url, Path png) throws IOException, InterruptedException {
        Files.deleteIfExists(png);
        run(
                chromium,
                List.of(
                        VIRTUAL_TIME_BUDGET,
                        "--window-size=1280,2400",
                        "--hide-scrollbars",
                        "--screenshot=" + png,
                        url));
    }

    private static String locate(String logName, String... args) throws IOException, InterruptedException {
        Files.createDirectories(TARGET);
        Path log = TARGET.resolve(logName);
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0 || out.isEmpty()) {
            p.destroyForcibly();
            fail("this test needs " + String.join(" ", command) + " to provide Chromium (install Debian's chromium "
                    + "and chromium-driver packages, or set PASTEBIN_CHROMIUM / PASTEBIN_CHROMEDRIVER): "
                    + Files.readString(log));
        }
        return out;
    }

    private static String run(String chromium, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium));
        command.addAll(HEADLESS_FLAGS);
        command.add("--user-data-dir=" + TARGET.resolve("chromium-profile"));
        command.addAll(args);
        Path stderr = TARGET.resolve("chromium.log");
        Process p = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 90 s: " + command);
        }
        if (p.exitValue() != 0) {
            fail("chromium exited with " + p.exitValue() + ": " + command + "\n" + Files.readString(stderr));
        }
        return out;
    }
}
