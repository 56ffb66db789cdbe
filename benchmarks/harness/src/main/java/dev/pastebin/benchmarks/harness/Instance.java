package dev.pastebin.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Lambda execution environment: a fresh {@code java} process running the AWS Lambda Runtime
 * Interface Client ({@code AWSLambda <handler>}) with the runtime's jars on the system class path and the
 * function's artifact as its working directory (the RIC loads {@code ./} and {@code ./lib/*.jar} through
 * its own class loader, as on Lambda), talking to an in-process {@link RuntimeApi}.
 */
final class Instance implements AutoCloseable {

    static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    private final RuntimeApi api;
    private final Process process;
    private final long startNanos;
    private final Path log;

    private Instance(RuntimeApi api, Process process, long startNanos, Path log) {
        this.api = api;
        this.process = process;
        this.startNanos = startNanos;
        this.log = log;
        process.onExit().thenAccept(p -> api.processExited(p.exitValue()));
    }

    /**
     * The java21 runtime's own launch flags, as the project's local runtime (infra, dev.pastebin.local
     * FunctionLauncher) models them: heap at 85% of the memory size, serial GC, C1 only (AWS documents
     * TieredStopAtLevel=1 as the default of its Java 17+ runtimes), CDS of the JDK's classes. Knobs add
     * flags after these (the last occurrence of a -XX flag wins) and JAVA_TOOL_OPTIONS comes from the template.
     */
    static List<String> lambdaLauncherFlags(int memoryMb) {
        return List.of("-XX:MaxHeapSize=" + (memoryMb * 85 / 100) + "m", "-XX:+UseSerialGC",
                "-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "--add-opens=java.base/java.io=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-Djava.net.preferIPv4Stack=true");
    }

    static Instance start(Path java, Path runtimeLib, FunctionSpec spec, Path logDir, int memoryMb) throws IOException {
        RuntimeApi api = new RuntimeApi(spec.label());
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        boolean aotCache = spec.jvmFlags().stream().anyMatch(f -> f.startsWith("-XX:AOTCache"));
        for (String flag : lambdaLauncherFlags(memoryMb)) {
            // JDK 25's AOT cache refuses any explicit -Xshare mode; it maps the JDK's CDS archive itself.
            if (!(aotCache && flag.startsWith("-Xshare"))) {
                cmd.add(flag);
            }
        }
        cmd.addAll(spec.jvmFlags());
        cmd.add("-cp");
        cmd.add(runtimeLib.toAbsolutePath() + "/*");
        cmd.add(RIC_MAIN);
        cmd.add(spec.handler());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(spec.taskRoot().toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "en_US.UTF-8");
        env.put("TZ", ":UTC");
        env.put("HOME", System.getProperty("java.io.tmpdir"));
        env.put("LAMBDA_TASK_ROOT", spec.taskRoot().toAbsolutePath().toString());
        env.put("LAMBDA_RUNTIME_DIR", runtimeLib.toAbsolutePath().toString());
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_java21");
        env.put("AWS_LAMBDA_FUNCTION_NAME", spec.label());
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(memoryMb));
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + spec.label());
        env.put("AWS_LAMBDA_LOG_STREAM_NAME", "bench");
        env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand");
        env.put("_HANDLER", spec.handler());
        env.putAll(spec.env());
        env.put("AWS_LAMBDA_RUNTIME_API", api.address());
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, spec.label().replaceAll("[^A-Za-z0-9_.-]", "_") + "-", ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        long t0 = System.nanoTime();
        Process p = pb.start();
        return new Instance(api, p, t0, log);
    }

    RuntimeApi.Result invoke(String payload, int timeoutSeconds) throws Exception {
        return api.invoke(payload, timeoutSeconds);
    }

    long startNanos() {
        return startNanos;
    }

    long firstNextNanos() {
        return api.firstNextNanos();
    }

    Path log() {
        return log;
    }

    long pid() {
        return process.pid();
    }

    /** Peak resident set size so far (VmHWM), in KiB; -1 if the process is gone. */
    long peakRssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** Ends the JVM normally (SIGTERM runs its exit path, so -XX:ArchiveClassesAtExit / AOT cache output are written). */
    void stopGracefully(int seconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        api.close();
    }
}
