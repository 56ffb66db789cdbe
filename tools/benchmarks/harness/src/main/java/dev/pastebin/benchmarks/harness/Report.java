package dev.pastebin.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Markdown report: every line goes to stdout as it is measured and into the results file at the end. */
final class Report {

    private final StringBuilder text = new StringBuilder();

    void line(String s) {
        System.out.println(s);
        text.append(s).append('\n');
    }

    /** A section's heading and the machine's load before it (a busy machine explains outliers). */
    void section(String title) {
        line("## " + title);
        line("");
        line("load before this section: " + firstLineQuiet(Path.of("/proc/loadavg")));
        line("");
    }

    void writeTo(Path file) throws IOException {
        Files.writeString(file, text.toString());
    }

    /** One line of at most 300 characters that cannot break a table cell. */
    static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        s = s.replace('\n', ' ').replace("|", "/");
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    static String firstLine(Path p) throws IOException {
        return Files.readAllLines(p).get(0).replaceAll("\\s+", " ");
    }

    private static String firstLineQuiet(Path p) {
        try {
            return firstLine(p);
        } catch (IOException e) {
            return "?";
        }
    }

    /** What a command prints (stdout and stderr), e.g. {@code java -version}. */
    static String exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }
}
