package dev.pastebin.benchmarks.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first invocation after priming (what a SnapStart restore starts from): fresh JVMs with the primers run
 * at Init, for the project and for the baseline primed as the issue first named it and as deeply as the project.
 */
final class PrimedFirstInvocation implements Section {

    private final Report report;
    private final Bench.Options options;
    private final FunctionsUnderTest functions;
    private final ColdStarts coldStarts;
    private final PrimingAtInit primingAtInit;

    PrimedFirstInvocation(
            Report report,
            Bench.Options options,
            FunctionsUnderTest functions,
            ColdStarts coldStarts,
            PrimingAtInit primingAtInit) {
        this.report = report;
        this.options = options;
        this.functions = functions;
        this.coldStarts = coldStarts;
        this.primingAtInit = primingAtInit;
    }

    @Override
    public void run() throws Exception {
        report.section("First invocation after priming (fresh JVM per run, " + options.runs()
                + " runs after 1 warm-up; median (min-max))");
        System.err.println("primed first invocations:");
        report.line(
                "| function | implementation | priming at Init | handler ready ms | first invocation ms | first response ms | ok runs |");
        report.line("|---|---|---|---|---|---|---|");
        Map<String, Double> primedInvocation = new LinkedHashMap<>();
        for (String key : functions.createAndReadSeries()) {
            String fn = key.replace("baseline-", "");
            FunctionSpec spec = functions.spec(key);
            int mem = functions.memoryMb(key);
            boolean baseline = key.startsWith("baseline-");
            for (String priming : baseline ? List.of("no", "yes", "deep") : List.of("no", "yes")) {
                FunctionSpec s = switch (priming) {
                    case "yes" -> primingAtInit.primed(spec).withLabel(spec.label() + "+primed");
                    case "deep" -> primingAtInit.primedDeep(spec).withLabel(spec.label() + "+primed-deep");
                    default -> spec;
                };
                ColdResult r = coldStarts.runs(s, key, options.runs(), mem);
                if (!priming.equals("no") && !r.invocation().isEmpty()) {
                    primedInvocation.put(key + " " + priming, r.invocation().median());
                }
                report.line("| " + fn + " | " + (baseline ? "baseline" : "project") + " | "
                        + (priming.equals("deep") ? "yes, success paths too (as deep as the project)" : priming) + " | "
                        + r.init().medRange("%.0f") + " | " + r.invocation().medRange("%.1f") + " | "
                        + r.first().medRange("%.0f") + " | "
                        + r.ok() + "/" + r.attempted() + (r.note().isEmpty() ? "" : " " + r.note()) + " |");
            }
        }
        report.line("");
        report.line("Primed: project / baseline, first invocation (medians)");
        report.line("");
        report.line(
                "| function | project ms | baseline primed as first specified | ratio | baseline primed as deep as the project | ratio |");
        report.line("|---|---|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            Double p = primedInvocation.get(fn + " yes");
            Double b = primedInvocation.get("baseline-" + fn + " yes");
            Double d = primedInvocation.get("baseline-" + fn + " deep");
            if (p != null && b != null && d != null) {
                report.line(String.format(
                        "| %s | %.1f | %.1f | **%.2fx** | %.1f | **%.2fx** |", fn, p, b, p / b, d, p / d));
            }
        }
        report.line("");
        report.line(
                "\"First invocation\" = from handing the event out on /next to the answer, in a JVM that has just finished Init. "
                        + "Primed, the project runs its SnapStart primers (core.priming) at Init, from a benchmark-only startup listener "
                        + "(tools/benchmarks/priming) added to a copy of its lib/: a validation-only "
                        + "request through its handler, the runtime's event serializers, `SELECT 1`, `GetQueueAttributes` / `GetObject`, and the "
                        + "success paths without effects (create: INSERT rolled back, a SendMessage SQS refuses, the 201 body; read: S3's success "
                        + "answer replaced in-process). The baseline primes by hand either as the issue first named it (SELECT 1, "
                        + "GetQueueAttributes or HeadBucket, one validation-only request through its handler; `"
                        + PrimingAtInit.BASELINE_PRIME_AT_INIT + "=true`) or, with `"
                        + PrimingAtInit.BASELINE_PRIME_SUCCESS_PATH
                        + "=true` too, as deeply as the project. This is the state a SnapStart restore resumes "
                        + "from, minus the restore itself.");
        report.line("");
    }
}
