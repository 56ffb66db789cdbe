package dev.pastebin.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Deployment artifacts: the size of each function's zip and of its lib/, and the baseline's. */
record ArtifactSizes(Report report, Path repo) implements Section {

    @Override
    public void run() throws IOException {
        report.section("Deployment artifacts");
        report.line("| function | function.zip bytes | jars in lib/ | lib/ bytes (uncompressed jars) |");
        report.line("|---|---|---|---|");
        for (String fn : List.of("create", "read", "upload", "sweeper")) {
            Path module = repo.resolve(fn + "-function");
            Artifacts.Size s = Artifacts.size(module);
            report.line(String.format("| %s | %,d | %d | %,d |", fn, s.zipBytes(), s.jars(), s.libBytes()));
        }
        Artifacts.Size b = Artifacts.size(repo.resolve("tools/benchmarks/baseline"));
        report.line(String.format("| baseline (create+read) | %,d | %d | %,d |", b.zipBytes(), b.jars(), b.libBytes()));
        report.line("");
        report.line(
                "Classes loaded at first response are in the cold-start table (one extra run with `-Xlog:class+load`).");
        report.line("");
    }
}
