package dev.pastebin.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A function with a small fixed pool of execution environments. Each invocation takes a free environment
 * (waiting if all are busy, where Lambda would scale out or throttle) and gives it back afterwards.
 */
public final class LocalFunction implements AutoCloseable {

    private final FunctionDefinition definition;
    private final List<FunctionInstance> all = new ArrayList<>();
    private final BlockingQueue<FunctionInstance> idle;
    private final PrintStream log;

    LocalFunction(FunctionDefinition definition, FunctionLauncher launcher, Path taskRoot, int instances,
                  PrintStream log) {
        this.definition = definition;
        this.log = log;
        this.idle = new ArrayBlockingQueue<>(instances);
        for (int i = 0; i < instances; i++) {
            FunctionInstance instance = new FunctionInstance(definition, launcher, taskRoot);
            all.add(instance);
            idle.add(instance);
        }
    }

    public FunctionDefinition definition() {
        return definition;
    }

    /**
     * Starts the first environment now so the first invocation finds the function initialised; completes
     * when its init phase is over (the runtime asks for work) or has failed.
     */
    CompletableFuture<Void> warmUp() {
        return all.getFirst().startInit();
    }

    /**
     * Invokes the function once (RequestResponse) and logs one line.
     *
     * @param trigger what caused the invocation, for the log line (e.g. "GET /pastes/abc")
     */
    public InvocationResult invoke(byte[] event, String trigger) throws InterruptedException {
        FunctionInstance instance = idle.take();
        try {
            InvocationResult r = instance.invoke(event);
            log.printf("%-22s %-32s %-28s %6d ms%s%n", definition.logicalId(), trigger,
                    r.failed() ? "ERROR " + errorType(r) : "OK", r.duration().toMillis(), r.coldStart() ? " (cold start)" : "");
            return r;
        } finally {
            idle.add(instance);
        }
    }

    private static String errorType(InvocationResult r) {
        var json = Json.parseOrNull(r.payload());
        return json != null && json.hasNonNull("errorType") ? json.get("errorType").asText() : r.functionError();
    }

    @Override
    public void close() {
        all.forEach(FunctionInstance::close);
    }
}
