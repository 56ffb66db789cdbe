package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.FunctionConfiguration;
import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.lambda.RuntimeApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Lambda execution environment, started the way the local runtime starts one (its {@link JavaRuntime}
 * and {@link RuntimeApiServer}), but kept by the harness: its log goes to a file, and it reports the times
 * and the memory the benchmarks measure. All times are {@link System#nanoTime()} of this JVM.
 */
final class Instance implements AutoCloseable {

    /** Long enough that no benchmark invocation runs into the function's own timeout. */
    private static final Duration FUNCTION_TIMEOUT = Duration.ofMinutes(15);

    private static final String TRACE_ID = "Root=1-00000000-000000000000000000000000;Parent=0000000000000000;Sampled=0";

    /** The answer to one invocation: when the runtime received the event and when it answered. */
    record Result(boolean ok, String body, long deliveredNanos, long answeredNanos) {
        long latencyNanos() {
            return answeredNanos - deliveredNanos;
        }
    }

    private final RuntimeApiServer api;
    private final Process process;
    private final long startNanos;
    private final Path log;
    private final String functionArn;

    private Instance(RuntimeApiServer api, Process process, long startNanos, Path log, String functionArn) {
        this.api = api;
        this.process = process;
        this.startNanos = startNanos;
        this.log = log;
        this.functionArn = functionArn;
    }

    /** infra/template.yaml's Runtime, for AWS_EXECUTION_ENV (the runtimes section varies only the JVM). */
    private static final String TEMPLATE_RUNTIME = "java25";

    static Instance start(JavaRuntime runtime, FunctionSpec spec, Path logDir, int memoryMb) throws IOException {
        RuntimeApiServer api = new RuntimeApiServer();
        var configuration = new FunctionConfiguration(
                spec.label(),
                spec.handler(),
                TEMPLATE_RUNTIME,
                spec.taskRoot(),
                memoryMb,
                FUNCTION_TIMEOUT,
                spec.env(),
                spec.jvmFlags());
        ProcessBuilder pb = runtime.processBuilder(configuration, api.address());
        pb.environment().put("HOME", System.getProperty("java.io.tmpdir"));
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, spec.label().replaceAll("[^A-Za-z0-9_.-]", "_") + "-", ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        long t0 = System.nanoTime();
        Process p = pb.start();
        return new Instance(api, p, t0, log, runtime.functionArn(spec.label()));
    }

    /** Hands one event to the runtime and returns its answer; fails on an init error, an exit or a timeout. */
    Result invoke(String payload, int timeoutSeconds) throws Exception {
        var pending = api.submit(new RuntimeApiServer.Invocation(
                UUID.randomUUID().toString(),
                payload.getBytes(StandardCharsets.UTF_8),
                FUNCTION_TIMEOUT,
                functionArn,
                TRACE_ID));
        try {
            CompletableFuture.anyOf(pending.outcome(), api.initError(), process.onExit())
                    .get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(log + ": no answer within " + timeoutSeconds + " s");
        }
        if (!pending.outcome().isDone()) {
            throw new IllegalStateException(log + ": "
                    + (api.initError().isDone()
                            ? "init error: " + new String(api.initError().join().payload(), StandardCharsets.UTF_8)
                            : "process exited with status " + process.exitValue() + " before answering"));
        }
        RuntimeApiServer.Outcome o = pending.outcome().join();
        return new Result(
                o.errorType() == null,
                new String(o.payload(), StandardCharsets.UTF_8),
                pending.delivered().join(),
                o.answeredNanos());
    }

    long startNanos() {
        return startNanos;
    }

    /** When the runtime first asked for work (its init phase was over), or 0 while it has not. */
    long firstNextNanos() {
        return api.firstPoll().getNow(0L);
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
