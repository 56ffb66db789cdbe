package dev.pastebin.benchmarks.harness;

/** Retry gaps: the observed gaps between the attempts of jobs that fail every S3 attempt, per batching window. */
final class RetryGaps implements Section {

    private final Report report;
    private final Bench.Options options;
    private final FunctionsUnderTest functions;
    private final QueueLatency latency;

    RetryGaps(Report report, Bench.Options options, FunctionsUnderTest functions, QueueLatency latency) {
        this.report = report;
        this.options = options;
        this.functions = functions;
        this.latency = latency;
    }

    @Override
    public void run() throws Exception {
        report.section("Retry gaps (" + options.gapJobs() + " jobs failing every S3 attempt, per batching window)");
        if (!functions.has("upload")) {
            report.line("Not measured: the upload function is not built.");
            report.line("");
            return;
        }
        System.err.println("retry gaps:");
        latency.retryGaps(functions.spec("upload"), options.windows(), options.gapJobs(), functions.memoryMb("upload"));
    }
}
