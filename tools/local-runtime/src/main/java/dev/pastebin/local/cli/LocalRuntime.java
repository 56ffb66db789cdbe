package dev.pastebin.local.cli;

import dev.pastebin.local.http.HttpApiAuthorizers;
import dev.pastebin.local.http.HttpApiEvents;
import dev.pastebin.local.http.HttpApiRoutes;
import dev.pastebin.local.http.LocalHttpApi;
import dev.pastebin.local.lambda.ClassArchives;
import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.LocalFunction;
import dev.pastebin.local.lambda.TaskRoots;
import dev.pastebin.local.metrics.DashboardEndpoint;
import dev.pastebin.local.metrics.DashboardPanels;
import dev.pastebin.local.metrics.MetricsCollector;
import dev.pastebin.local.schedule.ScheduleRunner;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.SamTemplate;
import dev.pastebin.local.template.TemplateValues;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Runs a SAM application on one machine, as Lambda and its event sources would: serves the template's
 * HttpApi routes, polls the queues of its SQS events and fires its Schedule events, each invocation going to
 * the real function artifact in a function JVM of its own. The metric lines (Embedded Metric Format) in the
 * functions' output are collected and shown at {@code /_local/dashboard}.
 *
 * <p>Usage: {@code LocalRuntime --template template.yaml [--port 3000] [--env-vars env.json] ...}; the flags
 * are listed in the module's README.
 */
public final class LocalRuntime implements AutoCloseable {

    static {
        // before the Runtime API's server or the HTTP API's starts
        LocalHttpApi.admitManyHeaders();
    }

    private final RuntimeSettings settings;
    private final SqsClient sqs;
    private final LocalResources resources;
    private final LocalFunctions functions;
    private final MetricsCollector metrics = new MetricsCollector();
    private final DashboardPanels dashboardPanels;
    private final Path workDir;
    private final PrintStream log;
    private final List<AutoCloseable> started = new ArrayList<>();

    private LocalRuntime(RuntimeSettings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
        SamTemplate template = SamTemplate.read(settings.template(), settings.parameterOverrides());
        // Read first: a broken panel file stops the start before any function JVM does.
        this.dashboardPanels =
                settings.dashboard() == null ? DashboardPanels.NONE : DashboardPanels.read(settings.dashboard());
        // Before anything is started: recording without the recorder fails here, saying why.
        List<Path> layers = settings.recordCallsDir() == null
                ? List.of()
                : List.of(CallRecording.jar(settings.callRecorderLib(), settings.recordCallsDir()));
        this.sqs = SqsClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.of(settings.region()))
                .build();
        this.resources = new LocalResources(
                template.template(), settings.physicalNames(), sqs, settings.region(), settings.accountId());
        this.workDir = workDir(settings.workDir());
        var runtime = new JavaRuntime(
                        settings.javaExecutable(),
                        settings.ricLib(),
                        settings.region(),
                        settings.accountId(),
                        System.getenv())
                .withInitTimeout(settings.initTimeout());
        if (settings.recordCallsDir() != null) {
            runtime.withVariable(
                    CallRecording.DIRECTORY_VARIABLE, settings.recordCallsDir().toString());
            log.println("Recording the functions' AWS calls in " + settings.recordCallsDir() + " ("
                    + CallRecording.DIRECTORY_VARIABLE + "; the recorder "
                    + layers.get(0).getFileName()
                    + " is in each task root's lib/)");
        }
        if (settings.classArchives() != null) {
            runtime.withClassArchives(new ClassArchives(settings.classArchives()));
            log.println("Function JVMs share class archives in " + settings.classArchives()
                    + " (faster starts for test runs; Lambda has none)");
        }
        this.functions = new LocalFunctions(
                template,
                resources,
                EnvVarsFile.read(settings.envVars()),
                runtime,
                new TaskRoots(workDir, log, layers),
                settings.instances(),
                settings.eager(),
                log,
                metrics);
    }

    public static LocalRuntime create(RuntimeSettings settings, PrintStream log) {
        return new LocalRuntime(settings, log);
    }

    public static void main(String[] args) throws Exception {
        CommandLineFlags.Parsed flags = CommandLineFlags.parse(args, System.getenv());
        if (!flags.positional().isEmpty()) {
            throw new IllegalArgumentException("unexpected arguments " + flags.positional());
        }
        LocalRuntime runtime = create(flags.settings(), System.err);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            runtime.close();
                            stopped.countDown();
                        },
                        "local-runtime-shutdown"));
        runtime.start();
        stopped.await();
    }

    /** The function with this logical id, ready to invoke. */
    public LocalFunction function(String logicalId) {
        return functions.get(logicalId);
    }

    /** Starts the API, the queue pollers and the schedules; returns the API's port. */
    public synchronized int start() throws IOException {
        long t0 = System.nanoTime();
        HttpApiRoutes routes = new HttpApiRoutes();
        var authorizers = new HttpApiAuthorizers(functions.template().template(), resources, log, Clock.systemUTC());
        List<CompletableFuture<Void>> warmUps = new ArrayList<>();
        ScheduleRunner schedules = new ScheduleRunner(settings.region(), settings.accountId(), log);
        started.add(schedules);
        for (FunctionDefinition f : functions.template().functions()) {
            LocalFunction function = functions.get(f.logicalId());
            f.httpRoutes().forEach(r -> routes.add(function, r, authorizers.forRoute(f.logicalId(), r)));
            for (FunctionDefinition.SqsTrigger trigger : f.sqsTriggers()) {
                if (trigger.enabled()) {
                    started.add(startMapping(function, trigger));
                }
            }
            for (FunctionDefinition.ScheduleTrigger trigger : f.scheduleTriggers()) {
                if (trigger.enabled()) {
                    schedules.schedule(function, trigger, settings.scheduleInterval());
                }
            }
            // Warm what a client waits on (API routes, queues); a once-a-day schedule can start cold.
            if (settings.eager()
                    && (!f.httpRoutes().isEmpty() || !f.sqsTriggers().isEmpty())) {
                long w0 = System.nanoTime();
                warmUps.add(function.warmUp()
                        .thenRun(() -> log.printf(
                                "%s initialised in %d ms%n",
                                f.logicalId(),
                                Duration.ofNanos(System.nanoTime() - w0).toMillis())));
            }
        }
        LocalHttpApi api = new LocalHttpApi(
                routes,
                new HttpApiEvents.Stage(settings.accountId(), "local"),
                new InetSocketAddress(settings.host(), settings.port()));
        api.reserve(DashboardEndpoint.PREFIX, new DashboardEndpoint(metrics.series(), dashboardPanels));
        api.start();
        started.add(api);
        for (HttpApiRoutes.Target t : routes.targets()) {
            log.println("API  " + t.route().routeKey() + " -> " + t.function().name()
                    + t.authorizer()
                            .map(a -> " (JWT authorizer " + a.configuration().name() + ": "
                                    + a.configuration().issuer() + ")")
                            .orElse(""));
        }
        log.printf("Local API listening on http://%s:%d (Ctrl-C stops everything)%n", settings.host(), api.port());
        log.printf(
                "Metrics dashboard: http://%s:%d%sdashboard (the functions' EMF metric lines)%n",
                settings.host(), api.port(), DashboardEndpoint.PREFIX);
        var unused = CompletableFuture.allOf(warmUps.toArray(CompletableFuture[]::new))
                .whenComplete((ready, failure) -> {
                    if (failure == null) {
                        log.printf(
                                "Ready: %d function(s) initialised %d ms after start%n",
                                warmUps.size(),
                                Duration.ofNanos(System.nanoTime() - t0).toMillis());
                    } else {
                        // Without this line a failed init would only show as the missing "Ready".
                        log.printf("Not ready: a function's init failed: %s%n", failure);
                    }
                });
        return api.port();
    }

    private SqsEventSourceMapping startMapping(LocalFunction function, FunctionDefinition.SqsTrigger trigger) {
        String arn = TemplateValues.resolve(trigger.queue(), resources)
                .orElseThrow(() -> new IllegalArgumentException(
                        function.name() + "/" + trigger.eventName() + ": cannot resolve its Queue " + trigger.queue()));
        var queue = SqsEventSourceMapping.Queue.at(sqs, resources.queueUrlOfArn(arn));
        var settings = SqsEventSourceMapping.Settings.of(trigger);
        var mapping = new SqsEventSourceMapping(function, settings, sqs, queue, log);
        mapping.start();
        log.println("SQS  " + function.name() + "/" + trigger.eventName() + ": polling " + queue.url()
                + " (batch size " + settings.batchSize() + ", window " + settings.maximumBatchingWindow()
                + ", up to " + settings.maximumConcurrency() + " batches at once"
                + (settings.reportBatchItemFailures() ? ", ReportBatchItemFailures" : "") + ")");
        return mapping;
    }

    private static Path workDir(Path configured) {
        try {
            return configured != null
                    ? Files.createDirectories(configured)
                    : Files.createTempDirectory("local-runtime-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the work directory", e);
        }
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable c : started.reversed()) {
            try {
                c.close();
            } catch (Exception e) {
                log.println("while stopping: " + e);
            }
        }
        boolean wasRunning = !started.isEmpty();
        started.clear();
        functions.close();
        sqs.close();
        if (settings.workDir() == null) {
            try {
                TaskRoots.deleteTree(workDir);
            } catch (IOException e) {
                // Best effort: a temporary directory.
            }
        }
        if (wasRunning) {
            log.println("Local runtime stopped; function processes ended");
        }
    }
}
