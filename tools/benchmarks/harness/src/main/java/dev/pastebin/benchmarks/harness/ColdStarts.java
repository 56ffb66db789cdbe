package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * The cold-start measurement the cold, primed, Java-version and knob sections share: fresh JVMs of one launch
 * spec, one unmeasured warm-up run first, each answer checked; and the classes one run loads.
 */
final class ColdStarts {

    private final JavaRuntime runtime;
    private final FunctionsUnderTest functions;
    private final Path logs;
    private final Path work;

    ColdStarts(JavaRuntime runtime, FunctionsUnderTest functions, Path logs, Path work) {
        this.runtime = runtime;
        this.functions = functions;
        this.logs = logs;
        this.work = work;
    }

    /** {@code runs} fresh JVMs of {@code spec} on the benchmark's own JVM, answering events for {@code fn}. */
    ColdResult runs(FunctionSpec spec, String fn, int runs, int memoryMb) throws Exception {
        return runs(runtime, spec, fn, runs, memoryMb);
    }

    ColdResult runs(JavaRuntime jvm, FunctionSpec spec, String fn, int runs, int memoryMb) throws Exception {
        List<Double> init = new ArrayList<>();
        List<Double> invocation = new ArrayList<>();
        List<Double> first = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        IntFunction<String> payload = functions.payloadFor(fn);
        Predicate<String> ok = functions.expectationFor(fn);
        String note = "";
        int good = 0;
        for (int i = -1; i < runs; i++) {
            String event = payload.apply(i);
            try (Instance inst = Instance.start(jvm, spec, logs, memoryMb)) {
                Instance.Result r = inst.invoke(event, 120);
                long rssKb = inst.peakRssKb();
                boolean correct = r.ok() && ok.test(r.body());
                if (!correct && note.isEmpty()) {
                    note = "unexpected answer: " + Report.abbreviate(r.body()) + " (log " + inst.log() + ")";
                }
                if (i >= 0 && correct) {
                    good++;
                    init.add((inst.firstNextNanos() - inst.startNanos()) / 1e6);
                    invocation.add(r.latencyNanos() / 1e6);
                    first.add((r.answeredNanos() - inst.startNanos()) / 1e6);
                    rss.add(rssKb / 1024.0);
                } else if (i < 0) {
                    Files.deleteIfExists(inst.log());
                }
                if (correct && i >= 0) {
                    Files.deleteIfExists(inst.log());
                }
            } catch (Exception e) {
                if (note.isEmpty()) {
                    note = e.getMessage();
                }
            }
        }
        ColdResult res = new ColdResult(
                spec.label(),
                new Stats(init),
                new Stats(invocation),
                new Stats(first),
                new Stats(rss),
                good,
                runs,
                note);
        System.err.printf(
                "  %-40s first response %s ms, handler ready %s ms, RSS %s MiB %s%n",
                spec.label(),
                res.first().medRange("%.0f"),
                res.init().medRange("%.0f"),
                res.rssMb().medRange("%.0f"),
                note);
        return res;
    }

    /** Classes loaded up to the first response (one extra run with -Xlog:class+load), and how many came from a CDS/AOT archive. */
    int[] classCount(FunctionSpec spec, String fn, int memoryMb) throws Exception {
        Path log = work.resolve("classload-" + spec.label().replaceAll("[^A-Za-z0-9_.-]", "_") + ".log");
        Files.deleteIfExists(log);
        FunctionSpec s = spec.withFlags(List.of("-Xlog:class+load=info:file=" + log));
        try (Instance inst = Instance.start(runtime, s, logs, memoryMb)) {
            inst.invoke(functions.payloadFor(fn).apply(0), 120);
            inst.stopGracefully(10);
        }
        if (!Files.exists(log)) {
            return new int[] {-1, -1};
        }
        List<String> lines = Files.readAllLines(log);
        int total = 0;
        int shared = 0;
        for (String l : lines) {
            if (l.contains("source:")) {
                total++;
                if (l.contains("shared objects file") || l.contains("AOT")) {
                    shared++;
                }
            }
        }
        return new int[] {total, shared};
    }
}
