package dev.pastebin.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The figures of one run, each check's verdict (as the run's {@link Strictness} weighs it), and their table. */
record ChaosReport(
        ChaosSchedule schedule,
        Budget budget,
        Strictness strictness,
        Instant start,
        List<FaultWindow> windows,
        Figures figures,
        List<String> findings) {

    /** What the checks counted. */
    record Figures(
            int pastes,
            int creates,
            int reads,
            int lost,
            int stuck,
            int late,
            int wrongBytes,
            int failed,
            Duration p50,
            Duration p99,
            Duration max,
            int fiveXxInside,
            int fiveXxOutside,
            int fiveXxNotDocumented,
            int unexpectedAnswers,
            Map<FaultKind, Integer> fiveXxByFault,
            int queueDepth,
            int deadLetterDepth,
            int rowsInProgress,
            int refusedCreateRows,
            int s3PutAttempts,
            int s3PutsFaulted,
            Duration run) {}

    boolean passed() {
        return correctnessHolds() && (timingHolds() || !strictness.timingChecksFail());
    }

    /** What every run must show, however slow the machine. */
    boolean correctnessHolds() {
        Figures f = figures;
        return f.lost() == 0
                && f.stuck() == 0
                && f.wrongBytes() == 0
                && f.failed() == 0
                && f.fiveXxNotDocumented() == 0
                && f.unexpectedAnswers() == 0
                && f.queueDepth() == 0
                && f.deadLetterDepth() == 0
                && f.rowsInProgress() == 0
                && f.pastes() > 0;
    }

    /**
     * What only a machine fast enough for the budget shows: every paste terminal within it, and no 5xx outside
     * a planned window (one that is not the documented 503 fails {@link #correctnessHolds()} anyway).
     */
    boolean timingHolds() {
        return figures.late() == 0 && figures.fiveXxOutside() == 0;
    }

    /** The one table: every check, its figure and whether it holds. */
    String table() {
        Figures f = figures;
        List<String[]> rows = new ArrayList<>();
        rows.add(row(
                "pastes created (201)", f.pastes() + " of " + f.creates() + " creates; " + f.reads() + " reads", true));
        rows.add(row(
                "faults",
                windows.size() + " ("
                        + String.join(
                                ", ",
                                windows.stream().map(w -> w.kind().label()).toList()) + ")",
                true));
        rows.add(row("lost (accepted, then not readable)", f.lost(), f.lost() == 0));
        rows.add(row("stuck (IN_PROGRESS at the end)", f.stuck(), f.stuck() == 0));
        rows.add(timingRow("late (terminal after the schedule's budget)", f.late(), f.late() == 0));
        rows.add(row("wrong bytes (PROCESSED, content differs)", f.wrongBytes(), f.wrongBytes() == 0));
        rows.add(row("FAILED (every fault is transient: none may be)", f.failed(), f.failed() == 0));
        rows.add(row(
                "time to terminal p50 / p99 / max",
                seconds(f.p50()) + " / " + seconds(f.p99()) + " / " + seconds(f.max()),
                true));
        rows.add(row("5xx inside planned fault windows", f.fiveXxInside() + byFault(f.fiveXxByFault()), true));
        rows.add(timingRow("5xx outside planned fault windows", f.fiveXxOutside(), f.fiveXxOutside() == 0));
        rows.add(row(
                "5xx not 503 + documented JSON + Retry-After", f.fiveXxNotDocumented(), f.fiveXxNotDocumented() == 0));
        rows.add(row("other unexpected answers", f.unexpectedAnswers(), f.unexpectedAnswers() == 0));
        rows.add(row(
                "upload queue / dead-letter queue at the end",
                f.queueDepth() + " / " + f.deadLetterDepth(),
                f.queueDepth() == 0 && f.deadLetterDepth() == 0));
        rows.add(row(
                "rows IN_PROGRESS (all rows, " + f.refusedCreateRows() + " of refused creates)",
                f.rowsInProgress(),
                f.rowsInProgress() == 0));
        rows.add(row(
                "S3 PUT attempts at the proxy (faulted)", f.s3PutAttempts() + " (" + f.s3PutsFaulted() + ")", true));
        StringBuilder out =
                new StringBuilder("| check (" + strictness.label() + ") | figure | holds |\n|---|---|---|\n");
        rows.forEach(r -> out.append("| ").append(String.join(" | ", r)).append(" |\n"));
        return out.toString();
    }

    /** When each fault happened, seconds from the start of the load. */
    String faultTable() {
        StringBuilder out =
                new StringBuilder("| fault | what | planned at / for | happened | observed |\n|---|---|---|---|---|\n");
        for (FaultWindow w : windows) {
            out.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d s / %d s | %s–%s s | %s |%n",
                    w.kind().label(),
                    w.kind().description(),
                    w.fault().at().toSeconds(),
                    w.fault().duration().toSeconds(),
                    offset(w.start()),
                    offset(w.end()),
                    w.note().isEmpty() ? "" : w.note()));
        }
        return out.toString();
    }

    private String offset(Instant moment) {
        return String.format(
                Locale.ROOT, "%.1f", Duration.between(start, moment).toMillis() / 1000.0);
    }

    private static String byFault(Map<FaultKind, Integer> counts) {
        if (counts.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((kind, n) -> parts.add(kind.label() + ": " + n));
        return " (" + String.join(", ", parts) + ")";
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String[] row(String check, Object figure, boolean holds) {
        return new String[] {check, String.valueOf(figure), holds ? "yes" : "**NO**"};
    }

    private String[] timingRow(String check, Object figure, boolean holds) {
        return holds || strictness.timingChecksFail()
                ? row(check, figure, holds)
                : new String[] {check, String.valueOf(figure), "no (timing: reported only)"};
    }
}
