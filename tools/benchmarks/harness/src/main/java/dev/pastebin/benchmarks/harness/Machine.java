package dev.pastebin.benchmarks.harness;

import java.nio.file.Path;

/** The machine the figures come from: cores, memory, kernel, the function JVM and the load at start. */
record Machine(Report report, Path javaBin) implements Section {

    @Override
    public void run() throws Exception {
        report.line("## Machine");
        report.line("");
        report.line("- nproc: " + Runtime.getRuntime().availableProcessors());
        report.line("- memory: " + Report.firstLine(Path.of("/proc/meminfo")));
        report.line("- kernel: " + Report.exec("uname", "-r"));
        report.line(
                "- function JVM: " + Report.exec(javaBin.toString(), "-version").replace('\n', ' '));
        report.line("- load at start: " + Report.firstLine(Path.of("/proc/loadavg")));
        report.line("");
    }
}
