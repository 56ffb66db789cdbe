package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.TaskRoots;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.ResourceAttributes;
import dev.pastebin.local.template.SamTemplate;
import dev.pastebin.local.template.TemplateValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * The functions the sections measure, by key ({@code create}, {@code read}, {@code upload}, {@code sweeper},
 * {@code baseline-create}, {@code baseline-read}, {@code io-probe}): each one's launch spec from the template's
 * built artifact, its memory, the event of one invocation and what a correct answer looks like.
 */
final class FunctionsUnderTest {

    private static final String BASELINE_PKG = "dev.pastebin.benchmarks.baseline.";

    private final Bench.Options options;
    private final Path repo;
    private final Path javaBin;
    private final SamTemplate template;
    private final TaskRoots taskRoots;
    private final Services services;
    private final Events events;
    private final String createQueueUrl;
    private final String readCode;
    private final Report report;
    private final Map<String, FunctionSpec> specs = new LinkedHashMap<>();

    private FunctionsUnderTest(
            Bench.Options options,
            SamTemplate template,
            TaskRoots taskRoots,
            Services services,
            Events events,
            String createQueueUrl,
            String readCode,
            Report report) {
        this.options = options;
        this.repo = options.repo();
        this.javaBin = options.java();
        this.template = template;
        this.taskRoots = taskRoots;
        this.services = services;
        this.events = events;
        this.createQueueUrl = createQueueUrl;
        this.readCode = readCode;
        this.report = report;
    }

    /** Builds every launch spec and prints the "Functions under test" section. */
    static FunctionsUnderTest load(
            Bench.Options options,
            SamTemplate template,
            TaskRoots taskRoots,
            Services services,
            Events events,
            String createQueueUrl,
            String readCode,
            Report report) {
        var functions = new FunctionsUnderTest(
                options, template, taskRoots, services, events, createQueueUrl, readCode, report);
        functions.build();
        return functions;
    }

    /** Whether {@code spec} launches one of the baseline's handlers rather than a project function. */
    static boolean isBaseline(FunctionSpec spec) {
        return spec.handler().startsWith(BASELINE_PKG);
    }

    boolean has(String key) {
        return specs.containsKey(key);
    }

    /** The launch spec of {@code key}, or null when it is not built. */
    FunctionSpec spec(String key) {
        return specs.get(key);
    }

    Events events() {
        return events;
    }

    /** The short code of the PROCESSED paste every read reads. */
    String readCode() {
        return readCode;
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
        // the local PostgreSQL has no TLS; the template requires verify-full
        env.put("PASTEBIN_DATABASE_TLS_REQUIRED", "false");
        return env;
    }

    private int memoryFor(FunctionDefinition f) {
        if (options.memoryMb() > 0) {
            return options.memoryMb();
        }
        return f == null ? 1024 : f.memorySizeMb();
    }

    /** The template's function whose CodeUri names {@code module} (e.g. create-function), or whose id starts like it. */
    private FunctionDefinition forModule(String module) {
        String stem = module.replace("-function", "").toLowerCase(Locale.ROOT);
        return template.functions().stream()
                .filter(f -> f.codeUri().toString().contains(module))
                .findFirst()
                .or(() -> template.functions().stream()
                        .filter(f -> f.logicalId().toLowerCase(Locale.ROOT).startsWith(stem))
                        .findFirst())
                .orElse(null);
    }

    /** The variables the template sets with literals (e.g. JAVA_TOOL_OPTIONS); the local values supply the rest. */
    private static Map<String, String> literalEnv(FunctionDefinition f) {
        return f == null
                ? Map.of()
                : TemplateValues.resolveAll(f.environment(), ResourceAttributes.NONE, new ArrayList<>());
    }

    private void build() {
        String globalJto = null;
        report.line("## Functions under test");
        report.line("");
        for (String fn : options.functions()) {
            String module = fn + "-function";
            FunctionDefinition tf = forModule(module);
            if (tf == null || tf.handler() == null) {
                throw new IllegalStateException(
                        "infra/template.yaml has no function with CodeUri " + module + " and a Handler");
            }
            String handler = tf.handler();
            if (options.handlerOverrides().containsKey(fn)) {
                report.line("- " + fn + ": handler overridden on the command line (template: `" + handler + "`)");
                handler = options.handlerOverrides().get(fn);
            }
            Path root;
            try {
                // The deployed artifact as the local runtime reads it (unpacked zip, or a makefile build).
                root = tf == null ? null : taskRoots.taskRoot(tf.logicalId(), tf.codeUri(), tf.buildMethod());
            } catch (RuntimeException e) {
                root = null;
            }
            if (root == null || !Files.isDirectory(root.resolve("lib")) || handler == null) {
                report.line("- " + fn + ": SKIPPED ("
                        + (handler == null
                                ? "no handler in infra/template.yaml"
                                : "not built: " + (tf == null ? module : tf.codeUri()) + " has no lib/")
                        + ")");
                continue;
            }
            Map<String, String> env = new LinkedHashMap<>(literalEnv(tf));
            env.putAll(localEnv());
            if (literalEnv(tf).containsKey("JAVA_TOOL_OPTIONS")) {
                globalJto = literalEnv(tf).get("JAVA_TOOL_OPTIONS");
            }
            specs.put(fn, new FunctionSpec(fn, root, handler, env, List.of()));
            report.line("- " + fn + ": `" + handler + "` from `" + repo.relativize(root) + "`, " + memoryFor(tf)
                    + " MB, JAVA_TOOL_OPTIONS="
                    + (env.containsKey("JAVA_TOOL_OPTIONS") ? "`" + env.get("JAVA_TOOL_OPTIONS") + "`" : "(none)"));
        }
        Path baseRoot = repo.resolve("tools/benchmarks/baseline/target/lambda");
        Map<String, String> baseEnv = new LinkedHashMap<>(localEnv());
        if (globalJto != null) {
            baseEnv.put("JAVA_TOOL_OPTIONS", globalJto);
        }
        specs.put(
                "baseline-create",
                new FunctionSpec("baseline-create", baseRoot, BASELINE_PKG + "CreatePasteHandler", baseEnv, List.of()));
        specs.put(
                "baseline-read",
                new FunctionSpec("baseline-read", baseRoot, BASELINE_PKG + "ReadPasteHandler", baseEnv, List.of()));
        specs.put(
                "io-probe",
                new FunctionSpec("io-probe", baseRoot, BASELINE_PKG + "IoProbeHandler", baseEnv, List.of()));
        report.line(
                "- baseline: `" + BASELINE_PKG
                        + "{CreatePasteHandler,ReadPasteHandler}` from `tools/benchmarks/baseline/target/lambda`, same env and JAVA_TOOL_OPTIONS");
        report.line("- launcher: `" + javaBin + " " + String.join(" ", JavaRuntime.launcherFlags(1024))
                + " -cp 'tools/local-runtime/target/ric-lib/*' " + JavaRuntime.RIC_MAIN
                + " <handler>` in the task root, clean environment");
        report.line("- events: create = " + events.createSource + "; read = " + events.readSource
                + "; upload = one seeded job per run; sweeper = " + events.scheduleSource);
        report.line("");
    }

    /** The memory of the template's function behind {@code key} (the baseline's: its project counterpart's), or --memory. */
    int memoryMb(String key) {
        return memoryFor(forModule(key.replace("baseline-", "") + "-function"));
    }

    /** The event for one cold/warm invocation of {@code fn}, and what a correct answer looks like. */
    IntFunction<String> payloadFor(String fn) {
        return switch (fn) {
            case "create", "baseline-create" -> i -> events.createEvent;
            case "read", "baseline-read" -> i -> events.read(readCode);
            case "upload" ->
                i -> {
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

    Predicate<String> expectationFor(String fn) {
        return switch (fn) {
            case "create", "baseline-create" -> r -> Events.statusCode(r) == 201;
            case "read", "baseline-read" -> r -> Events.statusCode(r) == 200;
            case "upload" ->
                r -> r.contains("batchItemFailures")
                        && Events.batchItemFailures(r).isEmpty();
            default -> r -> true;
        };
    }

    /** The project's and the baseline's create and read that are built and asked for, in the order the tables print them. */
    List<String> createAndReadSeries() {
        List<String> keys = new ArrayList<>();
        for (String fn : List.of("create", "read")) {
            for (String key : List.of(fn, "baseline-" + fn)) {
                if (specs.containsKey(key) && options.functions().contains(fn)) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }
}
