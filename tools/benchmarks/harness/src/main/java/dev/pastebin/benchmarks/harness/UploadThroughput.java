package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Upload throughput: a seeded backlog drained by one upload function instance fed by the local runtime's own
 * SQS event source mapping, per batching window.
 */
record UploadThroughput(
        Report report,
        Bench.Options options,
        FunctionsUnderTest functions,
        JavaRuntime runtime,
        Path logs,
        Services services)
        implements Section {

    @Override
    @SuppressWarnings("ClosingStandardOutputStreams") // closes the event source mapping, which leaves System.err open
    public void run() throws Exception {
        FunctionSpec spec = functions.spec("upload");
        report.section("Upload throughput (" + options.backlog()
                + " queued jobs, IN_PROGRESS -> PROCESSED, one function instance fed by the local "
                + "runtime's SQS event source mapping)");
        if (spec == null) {
            report.line("Not measured: the upload function is not built or has no handler in infra/template.yaml.");
            report.line("");
            return;
        }
        System.err.println("upload throughput:");
        report.line(
                "| batch size | batching window | pastes/s | wall s | invocations | records per invocation | batch latency p50 ms | p99 ms | PROCESSED / seeded |");
        report.line("|---|---|---|---|---|---|---|---|---|");
        int mem = functions.memoryMb("upload");
        for (int window : options.windows()) {
            int batch = 10;
            String marker = "bench-backlog-w" + window;
            String queue = services.createQueue(marker);
            long seedStart = System.nanoTime();
            services.seedBacklog(options.backlog(), marker, queue, Services.content(1024));
            System.err.printf("  seeded %d jobs in %.1f s%n", options.backlog(), (System.nanoTime() - seedStart) / 1e9);
            try (Instance inst = Instance.start(runtime, spec.withEnv("PASTEBIN_UPLOAD_QUEUE_URL", queue), logs, mem)) {
                // Throughput, not cold start: the clock starts once Init is over.
                long initDeadline = System.nanoTime() + 60_000_000_000L;
                while (inst.firstNextNanos() == 0 && System.nanoTime() < initDeadline) {
                    Thread.sleep(20);
                }
                var function = new InstanceFunction(inst);
                var settings = new SqsEventSourceMapping.Settings(batch, Duration.ofSeconds(window), true, 1);
                String stalled = "";
                double wall;
                int ok;
                try (var esm = new SqsEventSourceMapping(
                        function,
                        settings,
                        services.sqs,
                        SqsEventSourceMapping.Queue.at(services.sqs, queue),
                        System.err)) {
                    long t0 = System.nanoTime();
                    esm.start();
                    long limit = t0 + 600_000_000_000L;
                    int lastProcessed = -1;
                    long lastProgress = System.nanoTime();
                    while (System.nanoTime() < limit) {
                        int processed = services.count(marker, "PROCESSED") + services.count(marker, "FAILED");
                        if (processed >= options.backlog()) {
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
                System.err.printf(
                        "  batch %d, window %d s: %.1f pastes/s (%d PROCESSED in %.1f s)%n",
                        batch, window, ok / wall, ok, wall);
                report.line(String.format(
                        "| %d | %d s | %.1f | %.1f | %d | %.1f | %.1f | %.1f | %d / %d%s |",
                        batch,
                        window,
                        ok / wall,
                        wall,
                        invocations,
                        invocations == 0 ? 0.0 : ok / (double) invocations,
                        lat.median(),
                        lat.percentile(99),
                        ok,
                        options.backlog(),
                        stalled));
            }
        }
        report.line("");
        report.line(
                "The function is invoked by the local runtime's own SQS event source mapping (long poll, the batching window, one invocation "
                        + "per batch, DeleteMessageBatch for every record not in `batchItemFailures`), one poller. Concurrency inside a batch is the "
                        + "function's own configured parallelism. The clock starts after Init and stops when every seeded row is terminal.");
        report.line("");
    }
}
