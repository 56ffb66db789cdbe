package dev.pastebin.benchmarks.harness;

/** One section of the report: measures one thing and prints its tables (names in {@code --sections}). */
interface Section {

    void run() throws Exception;
}
