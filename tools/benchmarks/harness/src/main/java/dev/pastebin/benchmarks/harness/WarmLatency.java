package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * Warm latency: one JVM per function, a cold invocation, warm-up, then the measured invocations (Runtime API
 * handoff to answer), next to the I/O alone (the baseline's I/O probe) and the project's own overhead.
 */
record WarmLatency(Report report, Bench.Options options, FunctionsUnderTest functions, JavaRuntime runtime, Path logs)
        implements Section {

    private Stats warmRun(FunctionSpec spec, IntFunction<String> payload, Predicate<String> ok, int memoryMb)
            throws Exception {
        List<Double> lat = new ArrayList<>();
        try (Instance inst = Instance.start(runtime, spec, logs, memoryMb)) {
            for (int i = 0; i < options.warmup() + options.warm(); i++) {
                Instance.Result r = inst.invoke(payload.apply(i), 60);
                if (!r.ok() || !ok.test(r.body())) {
                    throw new IllegalStateException(
                            spec.label() + " answered " + Report.abbreviate(r.body()) + " (log " + inst.log() + ")");
                }
                if (i >= options.warmup()) {
                    lat.add(r.latencyNanos() / 1e6);
                }
            }
        }
        return new Stats(lat);
    }

    @Override
    public void run() throws Exception {
        report.section("Warm latency (one JVM: 1 cold + " + options.warmup() + " warm-up + " + options.warm()
                + " measured invocations; ms, Runtime API handoff to answer)");
        System.err.println("warm latency:");
        report.line("| function | implementation | p50 | p90 | p99 | max | I/O alone p50 | own overhead p50 |");
        report.line("|---|---|---|---|---|---|---|---|");
        FunctionSpec probe = functions.spec("io-probe");
        for (String fn : List.of("create", "read")) {
            if (!options.functions().contains(fn)) {
                continue;
            }
            String probePayload =
                    fn.equals("create") ? "create " + functions.events().createBody : "read " + functions.readCode();
            Stats io;
            try {
                // The probe is a stream handler: the payload reaches it untouched (plain text, not JSON).
                io = warmRun(probe, i -> probePayload, r -> true, 1024);
            } catch (Exception e) {
                report.line("| " + fn + " | I/O probe failed: " + e.getMessage() + " |");
                continue;
            }
            for (String key : List.of(fn, "baseline-" + fn)) {
                FunctionSpec spec = functions.spec(key);
                if (spec == null) {
                    continue;
                }
                try {
                    Stats s = warmRun(
                            spec, functions.payloadFor(key), functions.expectationFor(key), functions.memoryMb(key));
                    System.err.printf(
                            "  %-20s p50 %.2f p99 %.2f (I/O alone p50 %.2f)%n",
                            key, s.median(), s.percentile(99), io.median());
                    report.line(String.format(
                            "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |",
                            fn,
                            key.startsWith("baseline-") ? "baseline" : "project",
                            s.median(),
                            s.percentile(90),
                            s.percentile(99),
                            s.max(),
                            io.median(),
                            s.median() - io.median()));
                } catch (Exception e) {
                    report.line("| " + fn + " | " + key + " failed: "
                            + Report.abbreviate(String.valueOf(e.getMessage())) + " | | | | | | |");
                }
            }
        }
        report.line("");
        report.line(
                "\"I/O alone\" is `IoProbeHandler` (a stream handler in the baseline artifact doing only the INSERT + SendMessage, or the SELECT + GetObject, over the same runtime loop); "
                        + "\"own overhead\" = p50 − I/O-alone p50: event (de)serialization, routing, validation, framework.");
        report.line("");
    }
}
