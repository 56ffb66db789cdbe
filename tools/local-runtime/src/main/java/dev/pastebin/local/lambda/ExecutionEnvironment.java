package dev.pastebin.local.lambda;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
final class ExecutionEnvironment implements AutoCloseable {

    /** How long a training process may take to write its class archive after the TERM (seconds when idle). */
    private static final Duration TRAINING_EXIT = Duration.ofSeconds(20);

    private final FunctionConfiguration function;
    private final JavaRuntime runtime;
    private final PrintStream logs;
    private final FunctionOutput output;
    private volatile Process process;
    private volatile RuntimeApiServer api;
    private volatile Thread logPipe;
    /** How the running process uses the class archives; a training one writes its archive when it ends on a TERM. */
    private volatile ClassArchives.Use classArchive = ClassArchives.Use.NONE;

    ExecutionEnvironment(FunctionConfiguration function, JavaRuntime runtime, PrintStream logs, FunctionOutput output) {
        this.function = function;
        this.runtime = runtime;
        this.logs = logs;
        this.output = output;
    }

    /** Starts the process if none is running; its init phase proceeds in the background. */
    private synchronized boolean ensureStarted() {
        if (process != null && process.isAlive() && !api.initError().isDone()) {
            return false;
        }
        stop();
        try {
            api = new RuntimeApiServer();
            classArchive = runtime.classArchiveUse(function);
            process = runtime.processBuilder(function, api.address(), classArchive)
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            stop();
            throw new UncheckedIOException("cannot start " + function.name(), e);
        }
        pipe(process, "[" + function.name() + "] ");
        return true;
    }

    /** Starts the process (if needed); completes when its runtime first polls for work or reports an init error. */
    synchronized CompletableFuture<Void> startInit() {
        ensureStarted();
        return CompletableFuture.anyOf(api.firstPoll(), api.initError(), process.onExit())
                .thenApply(x -> null);
    }

    synchronized InvocationResult invoke(byte[] event) throws InterruptedException {
        long start = System.nanoTime();
        String requestId = UUID.randomUUID().toString();
        if (event.length > PayloadLimits.REQUEST_BYTES) {
            // Lambda refuses it before any environment sees it
            return InvocationResult.error(
                    requestId,
                    "RequestEntityTooLargeException",
                    "Request must be smaller than " + PayloadLimits.REQUEST_BYTES
                            + " bytes for the InvokeFunction operation",
                    since(start),
                    false);
        }
        boolean cold = ensureStarted();
        Process p = process;
        RuntimeApiServer runtimeApi = api;
        var pending = runtimeApi.submit(new RuntimeApiServer.Invocation(
                requestId, event, function.timeout(), runtime.functionArn(function.name()), traceId()));

        // Init phase: until the runtime takes the event (or reports an init error, or dies).
        try {
            CompletableFuture.anyOf(pending.delivered(), runtimeApi.initError(), p.onExit())
                    .get(runtime.initTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stop();
            return InvocationResult.error(
                    requestId,
                    "Sandbox.Timedout",
                    "RequestId: " + requestId + " Error: init " + "phase did not finish within "
                            + runtime.initTimeout().toSeconds() + " seconds",
                    since(start),
                    cold);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        if (!pending.delivered().isDone()) {
            stop();
            return runtimeApi.initError().isDone()
                    ? result(requestId, runtimeApi.initError().join(), start, cold)
                    : exitError(requestId, p, start, cold);
        }

        // Invoke phase: the function's Timeout runs from here.
        try {
            CompletableFuture.anyOf(pending.outcome(), p.onExit())
                    .get(function.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stop();
            return InvocationResult.error(
                    requestId,
                    "Sandbox.Timedout",
                    String.format(
                            Locale.ROOT,
                            "RequestId: %s Error: Task timed out after %.2f seconds",
                            requestId,
                            function.timeout().toMillis() / 1000.0),
                    since(start),
                    cold);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        if (pending.outcome().isDone()) {
            RuntimeApiServer.Outcome o = pending.outcome().join();
            // a runtime told 413 for its response exits (Java's does): the next invocation gets a fresh environment
            if (o.errorType() != null && (!p.isAlive() || o.errorType().equals(RuntimeApiServer.RESPONSE_TOO_LARGE))) {
                stop();
            }
            return result(requestId, o, start, cold);
        }
        p.waitFor();
        stop();
        return exitError(requestId, p, start, cold);
    }

    private static InvocationResult result(String requestId, RuntimeApiServer.Outcome o, long start, boolean cold) {
        return new InvocationResult(
                requestId, o.payload(), o.errorType() == null ? null : "Unhandled", since(start), cold);
    }

    private static InvocationResult exitError(String requestId, Process p, long start, boolean cold) {
        return InvocationResult.error(
                requestId,
                "Runtime.ExitError",
                "RequestId: " + requestId + " Error: Runtime exited with error: exit status " + p.exitValue(),
                since(start),
                cold);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static String traceId() {
        String hex = UUID.randomUUID().toString().replace("-", "");
        return "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-" + hex.substring(0, 24) + ";Parent="
                + hex.substring(16) + ";Sampled=0";
    }

    /**
     * Copies the process's output (its "CloudWatch log") line by line, prefixed with the function name, and
     * hands each line to the output listener (which may read metrics from it).
     */
    private void pipe(Process process, String prefix) {
        logPipe = Thread.ofPlatform().daemon().name(function.name() + "-log").start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    logs.println(prefix + line);
                    try {
                        output.line(function.name(), line);
                    } catch (RuntimeException e) {
                        // A bug in the listener must not stop the copying of the log.
                        logs.println(prefix + "(the output listener failed on this line: " + e + ")");
                    }
                }
            } catch (IOException e) {
                // The process is gone; nothing left to copy.
            }
        });
    }

    private void stop() {
        abandonTraining();
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

    /**
     * Copies what the ended process wrote before it ended (the last invocation's log lines may still be in the
     * pipe), so a caller that exits right after, as infra/local/invoke does, loses none of them.
     */
    private void drainLog(Process ended) {
        Thread pipe = logPipe;
        try {
            if (ended.waitFor(10, TimeUnit.SECONDS) && pipe != null) {
                pipe.join(Duration.ofSeconds(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A process killed, crashed or replaced writes no archive: another may train. */
    private void abandonTraining() {
        ClassArchives.Training training = classArchive.training();
        classArchive = ClassArchives.Use.NONE;
        if (training != null) {
            training.abandoned();
        }
    }

    /**
     * Not synchronized: a shutdown must not wait for a running invocation. A process that trains a class archive
     * ends on a TERM, so that its JVM writes the archive (seconds), and is killed only if it has not ended by then.
     */
    @Override
    public void close() {
        Process p = process;
        ClassArchives.Training training = classArchive.training();
        if (p != null && training != null) {
            p.destroy();
            try {
                if (p.waitFor(TRAINING_EXIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    classArchive = ClassArchives.Use.NONE;
                    training.ended();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        abandonTraining();
        if (p != null) {
            p.destroyForcibly();
            drainLog(p);
        }
        RuntimeApiServer a = api;
        if (a != null) {
            a.close();
        }
    }
}
