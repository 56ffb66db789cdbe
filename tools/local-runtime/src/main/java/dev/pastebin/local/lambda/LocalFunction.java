package dev.pastebin.local.lambda;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * A function that scales like Lambda, within a limit: an invocation takes an idle execution environment, or
 * starts a new one while the function has fewer than {@code maxEnvironments}; beyond that it waits (where
 * Lambda would throttle). The most recently used environment is reused first, so a warm one serves.
 */
public final class LocalFunction implements LambdaFunction, AutoCloseable {

    private final String name;
    private final Supplier<FunctionConfiguration> configure;
    private FunctionConfiguration configuration;
    private final JavaRuntime runtime;
    private final int maxEnvironments;
    private final PrintStream log;
    private final FunctionOutput output;
    private final Semaphore capacity;
    private final Deque<ExecutionEnvironment> idle = new ArrayDeque<>();
    private final List<ExecutionEnvironment> all = new ArrayList<>();

    /** @param output receives every line the function's processes write, besides the log */
    public LocalFunction(
            FunctionConfiguration configuration,
            JavaRuntime runtime,
            int maxEnvironments,
            PrintStream log,
            FunctionOutput output) {
        this(configuration.name(), () -> configuration, runtime, maxEnvironments, log, output);
    }

    /**
     * @param configure makes the configuration when it is first needed (the first environment, or
     *                  {@link #configuration()}): its task root is unpacked or built only for a function that runs
     */
    public LocalFunction(
            String name,
            Supplier<FunctionConfiguration> configure,
            JavaRuntime runtime,
            int maxEnvironments,
            PrintStream log,
            FunctionOutput output) {
        if (maxEnvironments < 1) {
            throw new IllegalArgumentException("a function needs at least one execution environment");
        }
        this.name = name;
        this.configure = configure;
        this.runtime = runtime;
        this.maxEnvironments = maxEnvironments;
        this.log = log;
        this.output = output;
        this.capacity = new Semaphore(maxEnvironments, true);
    }

    @Override
    public String name() {
        return name;
    }

    /** The configuration, made (its task root prepared) on the first call. */
    public synchronized FunctionConfiguration configuration() {
        if (configuration == null) {
            configuration = configure.get();
        }
        return configuration;
    }

    public int maxEnvironments() {
        return maxEnvironments;
    }

    /** Execution environments started so far (busy or idle). */
    public synchronized int environments() {
        return all.size();
    }

    /**
     * Starts one environment now so the first invocation finds the function initialised; completes when its
     * init phase is over (the runtime asks for work) or has failed.
     */
    public CompletableFuture<Void> warmUp() {
        if (!capacity.tryAcquire()) {
            return CompletableFuture.completedFuture(null);
        }
        ExecutionEnvironment environment = take();
        try {
            return environment.startInit();
        } finally {
            release(environment);
            capacity.release();
        }
    }

    @Override
    public InvocationResult invoke(byte[] event, String trigger) throws InterruptedException {
        capacity.acquire();
        ExecutionEnvironment environment = take();
        try {
            InvocationResult r = environment.invoke(event);
            log.printf(
                    "%-22s %-32s %-28s %6d ms%s%n",
                    name(),
                    trigger,
                    r.failed() ? "ERROR " + r.errorType() : "OK",
                    r.duration().toMillis(),
                    r.coldStart() ? " (cold start)" : "");
            output.invoked(name(), r);
            return r;
        } finally {
            release(environment);
            capacity.release();
        }
    }

    private synchronized ExecutionEnvironment take() {
        ExecutionEnvironment environment = idle.pollFirst();
        if (environment == null) {
            environment = new ExecutionEnvironment(configuration(), runtime, log, output);
            all.add(environment);
        }
        return environment;
    }

    private synchronized void release(ExecutionEnvironment environment) {
        idle.addFirst(environment);
    }

    @Override
    public synchronized void close() {
        all.forEach(ExecutionEnvironment::close);
    }
}
