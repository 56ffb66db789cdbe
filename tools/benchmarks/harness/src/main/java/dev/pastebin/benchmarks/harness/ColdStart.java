package dev.pastebin.benchmarks.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cold start: a fresh JVM per run for each function and its baseline, the first response, Init, peak RSS and
 * the classes loaded; then the project / baseline ratio of the first response.
 */
record ColdStart(Report report, Bench.Options options, FunctionsUnderTest functions, ColdStarts coldStarts)
        implements Section {

    @Override
    public void run() throws Exception {
        Map<String, ColdResult> coldResults = new LinkedHashMap<>();
        report.section("Cold start (fresh JVM per run, " + options.runs() + " runs after 1 warm-up; median (min-max))");
        System.err.println("cold starts:");
        List<String> order = new ArrayList<>();
        for (String fn : options.functions()) {
            if (functions.has(fn)) {
                order.add(fn);
            }
            if (functions.has("baseline-" + fn)) {
                order.add("baseline-" + fn);
            }
        }
        report.line(
                "| function | implementation | first response ms | handler ready ms | peak RSS MiB | classes loaded (from CDS) | ok runs |");
        report.line("|---|---|---|---|---|---|---|");
        for (String key : order) {
            FunctionSpec spec = functions.spec(key);
            int mem = functions.memoryMb(key);
            ColdResult r = coldStarts.runs(spec, key, options.runs(), mem);
            coldResults.put(key, r);
            int[] classes;
            try {
                classes = coldStarts.classCount(spec, key, mem);
            } catch (Exception e) {
                classes = new int[] {-1, -1};
            }
            report.line("| " + key.replace("baseline-", "") + " | "
                    + (key.startsWith("baseline-") ? "baseline (no framework)" : "project") + " | "
                    + r.first().medRange("%.0f") + " | " + r.init().medRange("%.0f") + " | "
                    + r.rssMb().medRange("%.0f") + " | "
                    + classes[0] + " (" + classes[1] + ") | " + r.ok() + "/" + r.attempted()
                    + (r.note().isEmpty() ? "" : " " + r.note()) + " |");
        }
        report.line("");
        report.line("Headline: project / baseline, first response (medians)");
        report.line("");
        report.line("| function | project ms | baseline ms | ratio |");
        report.line("|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            ColdResult p = coldResults.get(fn);
            ColdResult b = coldResults.get("baseline-" + fn);
            if (p != null && b != null && !p.first().isEmpty() && !b.first().isEmpty()) {
                report.line(String.format(
                        "| %s | %.0f | %.0f | **%.2fx** |",
                        fn,
                        p.first().median(),
                        b.first().median(),
                        p.first().median() / b.first().median()));
            }
        }
        report.line("");
    }
}
