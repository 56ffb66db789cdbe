package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Knobs: one change at a time to the launch of one function (JIT, HTTP client, lazy init, jar layout,
 * class-path trims, Micronaut AOT, class data archives) on the project and the baseline, then the best
 * helpful knob of each group combined.
 */
final class Knobs implements Section {

    private static final String LAZY_HANDLER = "dev.pastebin.benchmarks.variants.LazyApiGatewayV2Function";

    private final Report report;
    private final Bench.Options options;
    private final FunctionsUnderTest functions;
    private final ColdStarts coldStarts;
    private final JavaRuntime runtime;
    private final Path repo;
    private final Path work;
    private final Path logs;

    Knobs(
            Report report,
            Bench.Options options,
            FunctionsUnderTest functions,
            ColdStarts coldStarts,
            JavaRuntime runtime,
            Path repo,
            Path work,
            Path logs) {
        this.report = report;
        this.options = options;
        this.functions = functions;
        this.coldStarts = coldStarts;
        this.runtime = runtime;
        this.repo = repo;
        this.work = work;
        this.logs = logs;
    }

    /**
     * One knob: a change applied to a function's launch spec. Knobs of one group exclude each other; the
     * best helpful one of each combinable group goes into the "combined" row.
     */
    private record Knob(
            String name,
            String group,
            Function<FunctionSpec, FunctionSpec> apply,
            boolean countArchived,
            boolean combinable) {}

    @Override
    public void run() throws Exception {
        String fn = options.functions().contains("create")
                ? "create"
                : options.functions().get(0);
        report.section("Knobs on the " + fn + " function (" + options.knobRuns()
                + " runs after 1 warm-up each; first response ms, median (min-max))");
        System.err.println("knobs:");
        Path clients = repo.resolve("tools/benchmarks/harness/target/http-clients");
        Path variantsJar = Artifacts.jars(repo.resolve("tools/benchmarks/variants/target")).stream()
                .findFirst()
                .orElse(null);
        List<Knob> knobs = new ArrayList<>();
        knobs.add(new Knob(
                "as configured: runtime's C1 default (-XX:TieredStopAtLevel=1) + template flags",
                "base",
                s -> s,
                false,
                false));
        knobs.add(new Knob(
                "full tiered JIT (C2): -XX:TieredStopAtLevel=4 after the runtime's flags",
                "jit",
                s -> s.withFlags(List.of("-XX:TieredStopAtLevel=4")).withLabel(s.label() + "+c2"),
                false,
                true));
        knobs.add(new Knob(
                "SDK HTTP client: Apache (classpath swap)",
                "http",
                s -> variant(
                        s,
                        "apache",
                        root -> Artifacts.withHttpClient(
                                root, clients.resolve("apache"), work.resolve("v-" + s.label() + "+apache"))),
                false,
                true));
        knobs.add(new Knob(
                "SDK HTTP client: AWS CRT (classpath swap)",
                "http",
                s -> variant(
                        s,
                        "crt",
                        root -> Artifacts.withHttpClient(
                                root, clients.resolve("crt"), work.resolve("v-" + s.label() + "+crt"))),
                false,
                true));
        knobs.add(new Knob(
                "lazy singletons / lazy init",
                "init",
                s -> s.label().startsWith("baseline")
                        ? s.withEnv("BASELINE_LAZY_INIT", "true").withLabel(s.label() + "+lazy")
                        : variant(
                                        s,
                                        "lazy",
                                        root -> Artifacts.withExtraJar(
                                                root, variantsJar, work.resolve("v-" + s.label() + "+lazy")))
                                .withHandler(LAZY_HANDLER),
                false,
                true));
        knobs.add(new Knob(
                "shaded jar, unzipped into the task root (what Lambda does with an uber-jar)",
                "layout",
                s -> variant(
                        s,
                        "exploded",
                        root -> Artifacts.explodedShaded(root, work.resolve("v-" + s.label() + "+exploded"))),
                false,
                true));
        knobs.add(new Knob(
                "shaded jar as lib/app.jar",
                "layout",
                s -> variant(
                        s, "onejar", root -> Artifacts.singleJar(root, work.resolve("v-" + s.label() + "+onejar"))),
                false,
                true));
        knobs.add(new Knob(
                "classpath trim: without micronaut-jackson-databind, jackson-databind/datatype (serde only)",
                "trim-jackson",
                s -> variant(
                        s,
                        "nojackson",
                        root -> Artifacts.without(
                                root,
                                List.of("micronaut-jackson-databind-", "jackson-databind-", "jackson-datatype-"),
                                work.resolve("v-" + s.label() + "+nojackson"))),
                false,
                true));
        knobs.add(new Knob(
                "classpath trim: without logback (SLF4J falls back to its no-op logger)",
                "trim-logback",
                s -> variant(
                        s,
                        "nologback",
                        root -> Artifacts.without(
                                root, List.of("logback-"), work.resolve("v-" + s.label() + "+nologback"))),
                false,
                true));
        knobs.add(new Knob(
                "classpath trim: without micronaut-discovery-core and micronaut-http-client-core",
                "trim-discovery",
                s -> variant(
                        s,
                        "nodiscovery",
                        root -> Artifacts.without(
                                root,
                                List.of("micronaut-discovery-core-", "micronaut-http-client-core-"),
                                work.resolve("v-" + s.label() + "+nodiscovery"))),
                false,
                true));
        knobs.add(new Knob(
                "classpath trim: without the Secrets Manager SDK (its client is an eager singleton even with no secret configured)",
                "trim-secretsmanager",
                s -> variant(
                        s,
                        "nosecrets",
                        root -> Artifacts.without(
                                root, List.of("secretsmanager-"), work.resolve("v-" + s.label() + "+nosecrets"))),
                false,
                true));
        // Micronaut AOT (micronaut-maven-plugin aot-analysis, see docs/benchmarks.md): its generated configurer,
        // service-loaded
        // by the context builder, appended to lib/. The baseline has no framework to optimise: its row is the noise.
        Path aotClasses = repo.resolve(fn + "-function/target/aot/jit/generated/classes");
        knobs.add(new Knob(
                "Micronaut AOT 2.8.0, JIT optimizations except service loading (generated configurer appended to lib/)",
                "aot-micronaut",
                s -> s.label().startsWith("baseline")
                        ? s.withLabel(s.label() + "+same")
                        : variant(
                                s,
                                "mnaot",
                                root -> Artifacts.withExtraJar(
                                        root,
                                        Artifacts.jarOf(aotClasses, work.resolve("micronaut-aot-" + fn + ".jar")),
                                        work.resolve("v-" + s.label() + "+mnaot"))),
                false,
                true));
        // Class data sharing: a training run writes the archive at exit, then the measured runs map it.
        knobs.add(new Knob(
                "AppCDS: dynamic archive from one training run (-XX:ArchiveClassesAtExit), then -XX:SharedArchiveFile",
                "cds",
                s -> trained(
                        s,
                        fn,
                        "appcds",
                        a -> List.of("-XX:ArchiveClassesAtExit=" + a),
                        a -> List.of("-XX:SharedArchiveFile=" + a),
                        ".jsa"),
                true,
                true));
        knobs.add(new Knob(
                "aside, JDK 25 AOT cache -XX:AOTCacheOutput, then -XX:AOTCache (a zip cannot ship one: it must come from the deployed JVM build)",
                "aot",
                s -> trained(
                        s,
                        fn,
                        "aot",
                        a -> List.of("-XX:AOTCacheOutput=" + a),
                        a -> List.of("-XX:AOTCache=" + a),
                        ".aot"),
                true,
                false));
        if (!options.knobGroups().isEmpty()) {
            knobs.removeIf(
                    k -> !k.group().equals("base") && !options.knobGroups().contains(k.group()));
        }
        for (String key : List.of(fn, "baseline-" + fn)) {
            if (!functions.has(key)) {
                report.line("(" + key + " not built: skipped)");
            }
        }
        report.line("| knob | project | baseline | project/baseline |");
        report.line("|---|---|---|---|");
        Map<Knob, Double> projectMedians = new LinkedHashMap<>();
        for (Knob k : knobs) {
            projectMedians.put(k, knobRow(k.name(), fn, k.apply(), k.countArchived())[0]);
        }
        // Combined: the best knob of each group that beat "as configured" by more than 3 %.
        double base = projectMedians.get(knobs.get(0));
        Map<String, Knob> best = new LinkedHashMap<>();
        for (Knob k : knobs) {
            double m = projectMedians.get(k);
            if (!k.combinable() || Double.isNaN(m) || Double.isNaN(base) || m > base * 0.97) {
                continue;
            }
            Knob current = best.get(k.group());
            if (current == null || m < projectMedians.get(current)) {
                best.put(k.group(), k);
            }
        }
        if (best.size() >= 2) {
            // The layout knob rewrites lib/ into another layout, so the knobs that change lib/ go before it, and the
            // archive knobs (a training run of the finished variant) last.
            List<String> lastGroups = List.of("layout", "cds", "aot");
            List<Knob> chosen = knobs.stream()
                    .filter(best::containsValue)
                    .sorted(Comparator.comparingInt(k -> lastGroups.indexOf(k.group())))
                    .toList();
            Function<FunctionSpec, FunctionSpec> all = s -> s;
            for (Knob k : chosen) {
                all = all.andThen(k.apply());
            }
            knobRow(
                    "combined: "
                            + String.join(
                                    " + ", chosen.stream().map(k -> k.group()).toList()),
                    fn,
                    all,
                    best.containsKey("cds"));
        }
        report.line("");
    }

    @FunctionalInterface
    private interface RootBuilder {
        Path build(Path root) throws IOException;
    }

    private static FunctionSpec variant(FunctionSpec s, String name, RootBuilder builder) {
        try {
            return s.withTaskRoot(builder.build(s.taskRoot())).withLabel(s.label() + "+" + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one training instance with {@code train} flags (ended normally so the archive is written), then returns the spec using it. */
    private FunctionSpec trained(
            FunctionSpec s,
            String fn,
            String name,
            Function<String, List<String>> train,
            Function<String, List<String>> use,
            String ext) {
        Path archive = work.resolve(name + "-" + s.label() + ext);
        try {
            Files.deleteIfExists(archive);
            FunctionSpec t =
                    s.withFlags(train.apply(archive.toString())).withLabel(s.label() + "+" + name + "-training");
            try (Instance inst = Instance.start(runtime, t, logs, functions.memoryMb(fn))) {
                inst.invoke(
                        functions
                                .payloadFor(s.label().startsWith("baseline") ? "baseline-" + fn : fn)
                                .apply(0),
                        120);
                inst.stopGracefully(60);
            }
            if (!Files.exists(archive)) {
                throw new IllegalStateException("training run wrote no " + archive.getFileName());
            }
        } catch (Exception e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
        return s.withFlags(use.apply(archive.toString())).withLabel(s.label() + "+" + name);
    }

    /** Measures one knob on the project and the baseline; returns their first-response medians (NaN when not measured). */
    private double[] knobRow(
            String name, String fn, Function<FunctionSpec, FunctionSpec> apply, boolean countArchived) {
        String[] cells = new String[2];
        double[] med = new double[] {Double.NaN, Double.NaN};
        List<String> keys = List.of(fn, "baseline-" + fn);
        for (int i = 0; i < 2; i++) {
            FunctionSpec base = functions.spec(keys.get(i));
            if (base == null) {
                cells[i] = "n/a";
                continue;
            }
            try {
                FunctionSpec s = apply.apply(base);
                ColdResult r = coldStarts.runs(s, keys.get(i), options.knobRuns(), functions.memoryMb(fn));
                cells[i] = r.first().medRange("%.0f")
                        + (r.ok() < r.attempted()
                                ? " [" + r.ok() + "/" + r.attempted() + " ok: " + Report.abbreviate(r.note()) + "]"
                                : "");
                med[i] = r.first().isEmpty() ? Double.NaN : r.first().median();
                if (countArchived && r.ok() > 0) {
                    int[] classes = coldStarts.classCount(s, keys.get(i), functions.memoryMb(fn));
                    cells[i] += " [" + classes[1] + " of " + classes[0] + " classes from archives]";
                }
            } catch (Exception e) {
                cells[i] = "failed: " + Report.abbreviate(String.valueOf(e.getMessage()));
                System.err.println("  " + name + " / " + keys.get(i) + ": " + e.getMessage());
            }
        }
        String ratio = Double.isNaN(med[0]) || Double.isNaN(med[1]) ? "" : String.format("%.2fx", med[0] / med[1]);
        report.line("| " + name + " | " + cells[0] + " | " + cells[1] + " | " + ratio + " |");
        return med;
    }
}
