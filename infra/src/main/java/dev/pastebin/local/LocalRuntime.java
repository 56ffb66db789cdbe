package dev.pastebin.local;

import dev.pastebin.core.config.UploadQueueProperties;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClient;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the whole system on one machine: applies the migrations, then serves the template's HttpApi routes,
 * polls the upload queue for the SQS-triggered function and fires the Schedule events, each by invoking
 * the real function artifact in its own function JVM, the way Lambda does.
 *
 * <p>Usage: {@code LocalRuntime [--port 3000] [--host 127.0.0.1] [--template infra/template.yaml]
 * [--schedule-interval 60s] [--instances 1] [--lazy]}
 */
@Singleton
public final class LocalRuntime implements AutoCloseable {

    private final LocalRuntimeConfiguration config;
    private final LocalFunctions functions;
    private final BeanProvider<SqsClient> sqs;
    private final UploadQueueProperties uploadQueue;
    private final String region;
    private final PrintStream log = System.err;
    private final List<AutoCloseable> started = new ArrayList<>();
    private LocalHttpApi api;

    LocalRuntime(LocalRuntimeConfiguration config, LocalFunctions functions, BeanProvider<SqsClient> sqs,
                 UploadQueueProperties uploadQueue, @Value("${aws.region:us-east-1}") String region) {
        this.config = config;
        this.functions = functions;
        this.sqs = sqs;
        this.uploadQueue = uploadQueue;
        this.region = region;
    }

    public static void main(String[] args) throws Exception {
        CommandLineFlags.Parsed flags = CommandLineFlags.parse(args);
        if (!flags.positional().isEmpty()) {
            throw new IllegalArgumentException("unexpected arguments " + flags.positional());
        }
        ApplicationContext context = start(flags);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            stopped.countDown();
        }, "local-runtime-shutdown"));
        context.getBean(LocalRuntime.class).start();
        stopped.await();
    }

    /** Starts the application context; creating the DataSource applies the Flyway migrations. */
    static ApplicationContext start(CommandLineFlags.Parsed flags) {
        ApplicationContext context = ApplicationContext.builder().properties(flags.properties()).start();
        context.getBean(DataSource.class);
        return context;
    }

    /** Starts the API, the queue poller and the schedules; returns the API's port. */
    public synchronized int start() throws IOException {
        long t0 = System.nanoTime();
        HttpApiRoutes routes = new HttpApiRoutes();
        List<CompletableFuture<Void>> warmUps = new ArrayList<>();
        ScheduleRunner schedules = new ScheduleRunner(region, config.accountId(), log);
        started.add(schedules);
        for (FunctionDefinition f : functions.template().functions()) {
            LocalFunction function = functions.get(f.logicalId());
            f.httpRoutes().forEach(r -> routes.add(function, r));
            for (FunctionDefinition.SqsTrigger trigger : f.sqsTriggers()) {
                if (trigger.enabled()) {
                    var mapping = new SqsEventSourceMapping(function, trigger, sqs.get(), uploadQueue.url(), region, log);
                    mapping.start();
                    started.add(mapping);
                    log.println("SQS " + f.logicalId() + "/" + trigger.eventName() + ": polling " + uploadQueue.url()
                            + " (batch size " + trigger.batchSize() + ", window " + trigger.maximumBatchingWindow()
                            + (trigger.reportBatchItemFailures() ? ", ReportBatchItemFailures" : "") + ")");
                }
            }
            for (FunctionDefinition.ScheduleTrigger trigger : f.scheduleTriggers()) {
                if (trigger.enabled()) {
                    schedules.schedule(function, trigger, config.scheduleInterval());
                }
            }
            // Warm what a client waits on (API routes, the queue); a once-a-day schedule can start cold.
            if (config.eager() && (!f.httpRoutes().isEmpty() || !f.sqsTriggers().isEmpty())) {
                long w0 = System.nanoTime();
                warmUps.add(function.warmUp().thenRun(() -> log.printf("%s initialised in %d ms%n", f.logicalId(),
                        Duration.ofNanos(System.nanoTime() - w0).toMillis())));
            }
        }
        api = new LocalHttpApi(routes, new HttpApiEvents.Stage(config.accountId(), "local"),
                new InetSocketAddress(config.host(), config.port()));
        api.start();
        started.add(api);
        for (HttpApiRoutes.Target t : routes.targets()) {
            log.println("API  " + t.route().routeKey() + " -> " + t.function().definition().logicalId());
        }
        log.printf("Local API listening on http://%s:%d (Ctrl-C stops everything)%n", config.host(), api.port());
        CompletableFuture.allOf(warmUps.toArray(CompletableFuture[]::new)).thenRun(() -> log.printf(
                "Ready: %d function(s) initialised %d ms after start%n", warmUps.size(),
                Duration.ofNanos(System.nanoTime() - t0).toMillis()));
        return api.port();
    }

    @PreDestroy
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
        if (wasRunning) {
            log.println("Local runtime stopped; function processes ended");
        }
    }
}
