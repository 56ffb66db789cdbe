package dev.pastebin.benchmarks.harness;

/** One cold-start series: Init (to the first /next), the first invocation alone, launch to first answer, peak RSS. */
record ColdResult(
        String label, Stats init, Stats invocation, Stats first, Stats rssMb, int ok, int attempted, String note) {}
