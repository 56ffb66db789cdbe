package dev.pastebin.benchmarks.harness;

/** Time to readable: from a create's 201 to the first 200 of its read, one paste at a time, per batching window. */
record TimeToReadable(Report report, Bench.Options options, FunctionsUnderTest functions, QueueLatency latency)
        implements Section {

    @Override
    public void run() throws Exception {
        report.section(
                "Time to readable (" + options.readablePastes() + " pastes, one at a time, per batching window)");
        if (!functions.has("create") || !functions.has("read") || !functions.has("upload")) {
            report.line("Not measured: needs the create, read and upload functions.");
            report.line("");
            return;
        }
        System.err.println("time to readable:");
        latency.timeToReadable(
                functions.spec("create"),
                functions.spec("read"),
                functions.spec("upload"),
                options.windows(),
                options.readablePastes(),
                functions.memoryMb("upload"));
    }
}
