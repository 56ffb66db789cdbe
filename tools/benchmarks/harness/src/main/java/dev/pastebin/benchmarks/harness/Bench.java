package dev.pastebin.benchmarks.harness;

import ch.qos.logback.classic.Level;
import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.TaskRoots;
import dev.pastebin.local.template.SamTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The benchmark harness: cold starts, warm latency, upload throughput, artifact sizes and knobs, for the
 * project's functions and the framework-free baseline, printed as Markdown tables. Run it with
 * {@code tools/benchmarks/run.sh} (see docs/benchmarks.md). It only reads the built artifacts.
 *
 * <p>This class parses the options, sets up the services and the functions under test, and runs the sections
 * asked for ({@code --sections}), each a {@link Section} of its own, in the report's order.
 */
public final class Bench {

    private final Options o;
    private final Path repo;
    private final JavaRuntime runtime;
    private final Path work;
    private final Path logs;
    private final Report report = new Report();

    record Options(
            Path repo,
            Path java,
            int runs,
            int knobRuns,
            int warm,
            int warmup,
            int backlog,
            Set<String> sections,
            List<String> functions,
            int memoryMb,
            Map<String, String> handlerOverrides,
            Set<String> knobGroups,
            List<Integer> windows,
            int readablePastes,
            int gapJobs,
            Map<String, Path> jvms) {}

    private Bench(Options o) throws IOException {
        this.o = o;
        this.repo = o.repo();
        // The Lambda runtime the local runtime starts functions with: the same launcher, RIC and flags.
        this.runtime = new JavaRuntime(o.java(), ricLib(), "us-east-1", "000000000000", Map.of());
        this.work = repo.resolve("tools/benchmarks/target/work");
        this.logs = repo.resolve("tools/benchmarks/target/logs");
        // Variants, archives and class-load logs of earlier runs would otherwise be mixed with this run's.
        TaskRoots.deleteTree(work);
        Files.createDirectories(work);
    }

    public static void main(String[] args) throws Exception {
        // The benchmark database's migrations (Flyway logs each one at INFO) are not part of the progress.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.flywaydb")).setLevel(Level.WARN);
        new Bench(parse(args)).run();
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
                new LinkedHashSet<>(List.of(
                        a.getOrDefault("sections", "artifacts,cold,primed,runtimes,warm,readable,gaps,upload,knobs")
                                .split(","))),
                List.of(a.getOrDefault("functions", "create,read,upload,sweeper")
                        .split(",")),
                Integer.parseInt(a.getOrDefault("memory", "0")),
                handlerOverrides(a.getOrDefault("handler", "")),
                new LinkedHashSet<>(
                        a.containsKey("knobs") ? List.of(a.get("knobs").split(",")) : List.of()),
                Arrays.stream(a.getOrDefault("windows", "1,0").split(","))
                        .map(Integer::parseInt)
                        .toList(),
                Integer.parseInt(a.getOrDefault("readable-pastes", "40")),
                Integer.parseInt(a.getOrDefault("gap-jobs", "5")),
                jvms(a.getOrDefault("jvms", "")));
    }

    /** {@code --jvms 21=/path/bin/java,25=/path/bin/java}: the runtimes section's JVMs (none: the section is not measured). */
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
                m.put(
                        pair.substring(0, pair.indexOf('=')).trim(),
                        pair.substring(pair.indexOf('=') + 1).trim());
            }
        }
        return m;
    }

    private void run() throws Exception {
        String runId = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        report.line("# Benchmark run "
                + DateTimeFormatter.ISO_INSTANT.format(
                        Instant.now().atOffset(ZoneOffset.UTC).toInstant()));
        report.line("");
        new Machine(report, o.java()).run();
        SamTemplate template = SamTemplate.read(repo.resolve("infra/template.yaml"));
        TaskRoots taskRoots = new TaskRoots(work.resolve("task-roots"), System.err);
        Services services = new Services(
                getenv("PGHOST", "127.0.0.1"),
                Integer.parseInt(getenv("PGPORT", "5432")),
                getenv("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                getenv("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                getenv("BENCH_DATABASE", "pastebin_bench"),
                getenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566"),
                runId);
        try {
            services.resetDatabase();
            services.createBucket();
            String createQueueUrl = services.createQueue("bench-create");
            byte[] content = Services.content(1024);
            Events events = new Events(repo.resolve("infra/events"), content);
            String readCode = services.seedProcessed(Services.newCode(), content);
            var functions =
                    FunctionsUnderTest.load(o, template, taskRoots, services, events, createQueueUrl, readCode, report);
            var coldStarts = new ColdStarts(runtime, functions, logs, work);
            var primingAtInit = new PrimingAtInit(repo.resolve("tools/benchmarks/priming/target"), work);
            var queueLatency = new QueueLatency(runtime, logs, services, events, primingAtInit, report::line);
            // In the report's order; --sections picks which run.
            Map<String, Section> sections = new LinkedHashMap<>();
            sections.put("artifacts", new ArtifactSizes(report, repo));
            sections.put("cold", new ColdStart(report, o, functions, coldStarts));
            sections.put("primed", new PrimedFirstInvocation(report, o, functions, coldStarts, primingAtInit));
            sections.put("runtimes", new JavaVersions(report, o, functions, coldStarts, primingAtInit, ricLib()));
            sections.put("warm", new WarmLatency(report, o, functions, runtime, logs));
            sections.put("readable", new TimeToReadable(report, o, functions, queueLatency));
            sections.put("gaps", new RetryGaps(report, o, functions, queueLatency));
            sections.put("upload", new UploadThroughput(report, o, functions, runtime, logs, services));
            sections.put("knobs", new Knobs(report, o, functions, coldStarts, runtime, repo, work, logs));
            for (Map.Entry<String, Section> section : sections.entrySet()) {
                if (o.sections().contains(section.getKey())) {
                    section.getValue().run();
                }
            }
        } finally {
            services.close();
            taskRoots.close();
            Path out = repo.resolve("tools/benchmarks/target/results-" + runId + ".md");
            report.writeTo(out);
            System.out.println();
            System.out.println("Report written to " + out);
        }
    }

    private Path ricLib() {
        return repo.resolve("tools/local-runtime/target/ric-lib");
    }

    private static String getenv(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
