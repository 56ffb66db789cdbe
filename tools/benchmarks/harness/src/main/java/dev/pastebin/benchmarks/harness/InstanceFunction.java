package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * An {@link Instance} as the local runtime's {@code SqsEventSourceMapping} invokes a function, so the
 * harness feeds the upload function with exactly the local runtime's poller (batch size, batching window,
 * ReportBatchItemFailures). Records when each message was handed to the function (System.nanoTime of this
 * JVM), by message id: the deliveries of a retried job.
 */
final class InstanceFunction implements LambdaFunction {

    private static final Pattern MESSAGE_ID = Pattern.compile("\"messageId\"\\s*:\\s*\"([^\"]+)\"");

    private final Instance instance;
    private final Map<String, List<Long>> deliveries = new ConcurrentHashMap<>();
    private final List<Double> latenciesMs = java.util.Collections.synchronizedList(new ArrayList<>());

    InstanceFunction(Instance instance) {
        this.instance = instance;
    }

    @Override
    public String name() {
        return "bench-upload";
    }

    @Override
    public InvocationResult invoke(byte[] event, String trigger) throws InterruptedException {
        String payload = new String(event, StandardCharsets.UTF_8);
        try {
            Instance.Result r = instance.invoke(payload, 120);
            MESSAGE_ID
                    .matcher(payload)
                    .results()
                    .forEach(m -> deliveries
                            .computeIfAbsent(m.group(1), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(r.deliveredNanos()));
            latenciesMs.add(r.latencyNanos() / 1e6);
            return new InvocationResult(
                    UUID.randomUUID().toString(),
                    r.body().getBytes(StandardCharsets.UTF_8),
                    r.ok() ? null : "Unhandled",
                    Duration.ofNanos(r.latencyNanos()),
                    false);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** When each message id was handed to the function, in order. */
    Map<String, List<Long>> deliveries() {
        return deliveries;
    }

    List<Double> latenciesMs() {
        return latenciesMs;
    }
}
