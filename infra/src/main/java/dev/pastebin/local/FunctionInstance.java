package dev.pastebin.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One execution environment of a function: a function JVM and its Runtime API. It serves one invocation at a
 * time. A process that crashed, timed out or failed its init is replaced by a fresh one on the next
 * invocation, as Lambda replaces a broken sandbox.
 */
final class FunctionInstance implements AutoCloseable {

    /** How long the init phase may take before the invocation fails (Lambda allows 10 s, then retries init
     * inside the invoke; a JVM on a busy laptop needs more). */
    static final Duration INIT_TIMEOUT = Duration.ofSeconds(60);

    private final FunctionDefinition function;
    private final FunctionLauncher launcher;
    private final Path taskRoot;
    private volatile Process process;
    private volatile RuntimeApiServer api;

    FunctionInstance(FunctionDefinition function, FunctionLauncher launcher, Path taskRoot) {
        this.function = function;
        this.launcher = launcher;
        this.taskRoot = taskRoot;
    }

    /** Starts the process if none is running; its init phase proceeds in the background. */
    synchronized boolean ensureStarted() {
        if (process != null && process.isAlive() && !api.initError().isDone()) {
            return false;
        }
        stop();
        try {
            api = new RuntimeApiServer();
            process = launcher.start(function, taskRoot, api.address());
        } catch (IOException e) {
            stop();
            throw new UncheckedIOException("cannot start " + function.logicalId(), e);
        }
        return true;
    }

    /** Starts the process (if needed); completes when its runtime first polls for work or reports an init error. */
    synchronized CompletableFuture<Void> startInit() {
        ensureStarted();
        RuntimeApiServer runtime = api;
        return CompletableFuture.anyOf(runtime.firstPoll(), runtime.initError(), process.onExit())
                .thenApply(x -> null);
    }

    synchronized InvocationResult invoke(byte[] event) throws InterruptedException {
        long start = System.nanoTime();
        boolean cold = ensureStarted();
        String requestId = UUID.randomUUID().toString();
        var outcome = new CompletableFuture<RuntimeApiServer.Outcome>();
        Process p = process;
        RuntimeApiServer runtime = api;

        // Init phase: wait until the runtime polls for work (or reports an init error, or dies).
        long initDeadline = System.nanoTime() + INIT_TIMEOUT.toNanos();
        boolean handedOut = false;
        while (!handedOut) {
            if (runtime.initError().isDone()) {
                stop();
                return result(requestId, runtime.initError().join(), start, cold);
            }
            if (!p.isAlive()) {
                stop();
                return error(requestId, "Runtime.ExitError", "RequestId: " + requestId
                        + " Error: Runtime exited with error: exit status " + p.exitValue(), start, cold);
            }
            if (System.nanoTime() > initDeadline) {
                stop();
                return error(requestId, "Sandbox.Timedout", "RequestId: " + requestId + " Error: init phase did not "
                        + "finish within " + INIT_TIMEOUT.toSeconds() + " seconds", start, cold);
            }
            long deadlineMs = System.currentTimeMillis() + function.timeout().toMillis();
            handedOut = runtime.offer(new RuntimeApiServer.Invocation(requestId, event, deadlineMs,
                    launcher.functionArn(function), traceId(), outcome), 100);
        }

        // Invoke phase: the function's Timeout runs from here.
        CompletableFuture<Void> exited = p.onExit().thenApply(x -> null);
        try {
            CompletableFuture.anyOf(outcome, exited).get(function.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stop();
            return error(requestId, "Sandbox.Timedout", String.format(Locale.ROOT,
                    "RequestId: %s Error: Task timed out after %.2f seconds", requestId,
                    function.timeout().toMillis() / 1000.0), start, cold);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        if (outcome.isDone()) {
            RuntimeApiServer.Outcome o = outcome.join();
            if (o.errorType() != null && !p.isAlive()) {
                stop();
            }
            return result(requestId, o, start, cold);
        }
        int status = p.waitFor();
        stop();
        return error(requestId, "Runtime.ExitError", "RequestId: " + requestId
                + " Error: Runtime exited with error: exit status " + status, start, cold);
    }

    private static InvocationResult result(String requestId, RuntimeApiServer.Outcome o, long start, boolean cold) {
        return new InvocationResult(requestId, o.payload(), o.errorType() == null ? null : "Unhandled",
                Duration.ofNanos(System.nanoTime() - start), cold);
    }

    private static InvocationResult error(String requestId, String type, String message, long start, boolean cold) {
        String json = "{\"errorType\":\"" + type + "\",\"errorMessage\":\"" + message.replace("\"", "'") + "\"}";
        return new InvocationResult(requestId, json.getBytes(StandardCharsets.UTF_8), "Unhandled",
                Duration.ofNanos(System.nanoTime() - start), cold);
    }

    private static String traceId() {
        String hex = UUID.randomUUID().toString().replace("-", "");
        return "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-" + hex.substring(0, 24)
                + ";Parent=" + hex.substring(16) + ";Sampled=0";
    }

    private void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        if (api != null) {
            api.close();
            api = null;
        }
    }

    /** Not synchronized: a shutdown must not wait for a running invocation. */
    @Override
    public void close() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
        RuntimeApiServer a = api;
        if (a != null) {
            a.close();
        }
    }
}
