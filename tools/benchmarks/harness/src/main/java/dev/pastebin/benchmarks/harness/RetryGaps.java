package dev.pastebin.benchmarks.harness;

/** Retry gaps: the observed gaps between the deliveries of jobs that fail every S3 attempt, per batching window. */
record RetryGaps(Report report, Bench.Options options, FunctionsUnderTest functions, QueueLatency latency)
        implements Section {

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
