package dev.pastebin.benchmarks.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first invocation after priming (what a SnapStart restore starts from): fresh JVMs with the primers run
 * at Init, for the project and for the baseline primed as the issue first named it and as deeply as the project.
 */
final class PrimedFirstInvocation implements Section {

    /** The project's flag that runs its SnapStart primers at Init (core.priming.PrimeAtInit); the baseline reads it too. */
    static final String PRIMING_AT_INIT = "PASTEBIN_PRIMING_AT_INIT";
    /** The baseline's knob for priming as deeply as the project (BaselineConfig). */
    static final String BASELINE_PRIME_SUCCESS_PATH = "BASELINE_PRIME_SUCCESS_PATH";

    private final Report report;
    private final Bench.Options options;
    private final FunctionsUnderTest functions;
    private final ColdStarts coldStarts;

    PrimedFirstInvocation(Report report, Bench.Options options, FunctionsUnderTest functions, ColdStarts coldStarts) {
        this.report = report;
        this.options = options;
        this.functions = functions;
        this.coldStarts = coldStarts;
    }

    @Override
    public void run() throws Exception {
        report.section("First invocation after priming (fresh JVM per run, " + options.runs() + " runs after 1 warm-up; median (min-max))");
        System.err.println("primed first invocations:");
        report.line("| function | implementation | priming at Init | handler ready ms | first invocation ms | first response ms | ok runs |");
        report.line("|---|---|---|---|---|---|---|");
        Map<String, Double> primedInvocation = new LinkedHashMap<>();
        for (String key : functions.createAndReadSeries()) {
            String fn = key.replace("baseline-", "");
            FunctionSpec spec = functions.spec(key);
            int mem = functions.memoryMb(key);
            boolean baseline = key.startsWith("baseline-");
            for (String priming : baseline ? List.of("no", "yes", "deep") : List.of("no", "yes")) {
                FunctionSpec s = switch (priming) {
                    case "yes" -> spec.withEnv(PRIMING_AT_INIT, "true").withLabel(spec.label() + "+primed");
                    case "deep" -> spec.withEnv(PRIMING_AT_INIT, "true").withEnv(BASELINE_PRIME_SUCCESS_PATH, "true")
                            .withLabel(spec.label() + "+primed-deep");
                    default -> spec;
                };
                ColdResult r = coldStarts.runs(s, key, options.runs(), mem);
                if (!priming.equals("no") && !r.invocation().isEmpty()) {
                    primedInvocation.put(key + " " + priming, r.invocation().median());
                }
                report.line("| " + fn + " | " + (baseline ? "baseline" : "project") + " | "
                        + (priming.equals("deep") ? "yes, success paths too (as deep as the project)" : priming) + " | "
                        + r.init().medRange("%.0f") + " | " + r.invocation().medRange("%.1f") + " | " + r.first().medRange("%.0f") + " | "
                        + r.ok() + "/" + r.attempted() + (r.note().isEmpty() ? "" : " " + r.note()) + " |");
            }
        }
        report.line("");
        report.line("Primed: project / baseline, first invocation (medians)");
        report.line("");
        report.line("| function | project ms | baseline primed as first specified | ratio | baseline primed as deep as the project | ratio |");
        report.line("|---|---|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            Double p = primedInvocation.get(fn + " yes");
            Double b = primedInvocation.get("baseline-" + fn + " yes");
            Double d = primedInvocation.get("baseline-" + fn + " deep");
            if (p != null && b != null && d != null) {
                report.line(String.format("| %s | %.1f | %.1f | **%.2fx** | %.1f | **%.2fx** |", fn, p, b, p / b, d, p / d));
            }
        }
        report.line("");
        report.line("\"First invocation\" = from handing the event out on /next to the answer, in a JVM that has just finished Init. "
                + "With `" + PRIMING_AT_INIT + "=true` the project runs its SnapStart primers (core.priming) at Init: a validation-only "
                + "request through its handler, the runtime's event serializers, `SELECT 1`, `GetQueueAttributes` / `GetObject`, and the "
                + "success paths without effects (create: INSERT rolled back, a SendMessage SQS refuses, the 201 body; read: S3's success "
                + "answer replaced in-process). The baseline primes by hand either as the issue first named it (SELECT 1, "
                + "GetQueueAttributes or HeadBucket, one validation-only request through its handler) or, with "
                + "`" + BASELINE_PRIME_SUCCESS_PATH + "=true`, as deeply as the project. This is the state a SnapStart restore resumes "
                + "from, minus the restore itself.");
        report.line("");
    }
}
