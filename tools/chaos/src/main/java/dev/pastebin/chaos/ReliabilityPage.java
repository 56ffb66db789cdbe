package dev.pastebin.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** docs/reliability.md: the machine, the command, the schedule and the figures of one run. */
final class ReliabilityPage {

    private ReliabilityPage() {}

    static String render(ChaosReport report, String command) {
        var f = report.figures();
        return """
                # Reliability under load and faults

                Written by the chaos suite (`%s`, module `tools/chaos/`) from the run below;
                [testing.md, "Chaos suite"](testing.md#chaos-suite) says what it does. Every figure is from that one run.

                ## Machine and run

                | | |
                |---|---|
                | machine | %s |
                | JDK | %s |
                | command | `%s` |
                | run | %s UTC, %s in all (start-up and settling included) |
                | load | %s creates/s steady (× %d during the burst), at most %d requests in flight, each create followed by a read of an earlier paste, for %d s |

                ## Schedule

                Seconds from the start of the load; "happened" is when the suite really switched the fault on and off.

                %s
                ## Figures

                %s
                **%s.**

                How each row is checked: a paste is every create answered 201. *Lost*: no row, or PROCESSED but not
                readable. *Late*: terminal (its row's `updated_at`) after the budget the schedule predicts (%d s, and a
                fault that starts while the paste is in progress extends it to the fault's end plus its recovery: the
                breaker's longest cool-down and hold for S3 faults, the queue's visibility timeout for a killed upload
                process or unreachable SQS). *Wrong bytes*: a read answered 200 with other bytes than were posted (every
                PROCESSED paste is read once more at the end). *FAILED*: every fault injected is transient, so no paste may
                end FAILED: after its %d fast attempts a paste waits on the slow schedule, and is late at worst. A 5xx is *inside*
                a window when the request overlaps a fault that takes the route's dependency away (%d s of grace after it
                ends); every 5xx must be 503 with `Retry-After` and the `{code: SERVICE_UNAVAILABLE, message, requestId}` body.
                Time to terminal is `updated_at − created_at` of the paste's row. The table's header names the run's
                mode: a strict run (`make chaos`, a measurement) fails on every check; the test command's correctness
                mode reports late pastes and 5xx outside the windows without failing on them.
                """.formatted(
                        command,
                        machine(),
                        jdk(),
                        command,
                        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
                                .withZone(ZoneOffset.UTC)
                                .format(report.start()),
                        minutes(f.run()),
                        format(report.schedule().createsPerSecond()),
                        report.schedule().burstFactor(),
                        report.schedule().maxInFlight(),
                        report.schedule().load().toSeconds(),
                        report.faultTable(),
                        report.table(),
                        report.passed() ? "Every check holds" : "Some checks do NOT hold (see the suite's output)",
                        Budget.STEADY.toSeconds(),
                        report.budget().maxAttempts(),
                        Checks.GRACE.toSeconds());
    }

    private static String machine() {
        String cpu = "?";
        long memoryKb = 0;
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("?");
            memoryKb = Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .findFirst()
                    .orElse(0L);
        } catch (IOException | RuntimeException e) {
            // not Linux: the figures stand without the model name
        }
        return String.format(
                Locale.ROOT,
                "%d CPUs (nproc), %s, %.1f GiB memory, %s %s",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                memoryKb / 1024.0 / 1024.0,
                System.getProperty("os.name"),
                System.getProperty("os.version"));
    }

    private static String jdk() {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + " (the suite and the local runtime; the functions are compiled for Java 21)";
    }

    private static String minutes(Duration d) {
        return String.format(Locale.ROOT, "%d min %02d s", d.toMinutes(), d.toSecondsPart());
    }

    private static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
