package dev.pastebin.benchmarks.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.pastebin.local.Json;
import dev.pastebin.local.lambda.JavaRuntime;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the upload trigger's settings do to users: time to readable (from the 201 of a create to the first
 * 200 of a read, one paste at a time) and the observed gaps between the deliveries of a job that fails every
 * time. The upload function is fed by the local runtime's own {@link SqsEventSourceMapping} with the
 * candidate settings, so what is measured is what {@code make run} does.
 */
final class QueueLatency {

    /** The nominal delays after attempts 1..5 of the default schedule (1 s x 2^(n-1)), for the gap table. */
    private static final double[] NOMINAL_GAPS = {1, 2, 4, 8, 16};

    private static final Duration READ_POLL = Duration.ofMillis(5);

    private final JavaRuntime runtime;
    private final Path logs;
    private final Services services;
    private final Events events;
    private final PrimingAtInit primingAtInit;
    private final Consumer<String> line;
    private final PrintStream progress = System.err;

    QueueLatency(
            JavaRuntime runtime,
            Path logs,
            Services services,
            Events events,
            PrimingAtInit primingAtInit,
            Consumer<String> line) {
        this.runtime = runtime;
        this.logs = logs;
        this.services = services;
        this.events = events;
        this.primingAtInit = primingAtInit;
        this.line = line;
    }

    private SqsEventSourceMapping mapping(
            InstanceFunction function, String queueUrl, int batchSize, int windowSeconds) {
        var settings = new SqsEventSourceMapping.Settings(batchSize, Duration.ofSeconds(windowSeconds), true, 1);
        return new SqsEventSourceMapping(
                function, settings, services.sqs, SqsEventSourceMapping.Queue.at(services.sqs, queueUrl), progress);
    }

    /** A started instance that has finished its Init (asked for work). */
    private Instance started(FunctionSpec spec, int memoryMb) throws IOException, InterruptedException {
        Instance inst = Instance.start(runtime, spec, logs, memoryMb);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (inst.firstNextNanos() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return inst;
    }

    /** Time to readable for each batching window, {@code pastes} created one at a time (after 3 discarded). */
    void timeToReadable(
            FunctionSpec create,
            FunctionSpec read,
            FunctionSpec upload,
            List<Integer> windows,
            int pastes,
            int memoryMb)
            throws Exception {
        line.accept(
                "| batching window | time to readable p50 ms | p90 ms | p99 ms | min-max ms | 202 answers before the 200 (mean) | pastes |");
        line.accept("|---|---|---|---|---|---|---|");
        for (int window : windows) {
            String queue = services.createQueue("bench-readable-w" + window);
            // One after the other: the runtime client unpacks its native library to the same file in /tmp at start,
            // and JVMs doing that at the same moment can crash on the half-written file.
            try (Instance c = started(create.withEnv("PASTEBIN_UPLOAD_QUEUE_URL", queue), memoryMb);
                    Instance r = started(read, memoryMb);
                    Instance u = started(upload.withEnv("PASTEBIN_UPLOAD_QUEUE_URL", queue), memoryMb)) {
                var function = new InstanceFunction(u);
                try (SqsEventSourceMapping esm = mapping(function, queue, 10, window)) {
                    esm.start();
                    List<Double> ms = new ArrayList<>();
                    int pending = 0;
                    for (int i = -3; i < pastes; i++) {
                        Instance.Result created = c.invoke(events.createEvent, 60);
                        String code = shortCode(created.body());
                        int seen202 = 0;
                        long readable = 0;
                        long limit = created.answeredNanos() + 30_000_000_000L;
                        while (readable == 0 && System.nanoTime() < limit) {
                            Instance.Result got = r.invoke(events.read(code), 60);
                            int status = Events.statusCode(got.body());
                            if (status == 200) {
                                readable = got.answeredNanos();
                            } else {
                                seen202 += status == 202 ? 1 : 0;
                                Thread.sleep(READ_POLL);
                            }
                        }
                        if (i >= 0 && readable != 0) {
                            ms.add((readable - created.answeredNanos()) / 1e6);
                            pending += seen202;
                        }
                    }
                    Stats s = new Stats(ms);
                    progress.printf("  window %d s: time to readable p50 %.0f ms%n", window, s.median());
                    line.accept(String.format(
                            "| %d s | %.0f | %.0f | %.0f | %.0f-%.0f | %.1f | %d/%d |",
                            window,
                            s.median(),
                            s.percentile(90),
                            s.percentile(99),
                            s.min(),
                            s.max(),
                            ms.isEmpty() ? 0 : pending / (double) ms.size(),
                            ms.size(),
                            pastes));
                }
            }
        }
        line.accept("");
        line.accept(
                "Create, read and upload each in its own warm JVM; the upload function fed by the local runtime's SQS event source "
                        + "mapping (batch size 10, the window of the row, ReportBatchItemFailures); time from the create's answer to the first "
                        + "200 of a read polled every " + READ_POLL.toMillis() + " ms; 3 pastes discarded first.");
        line.accept("");
    }

    /**
     * Gaps between the deliveries of jobs whose every S3 attempt fails (a local S3 stand-in answering 500
     * InternalError; breaker off), for each batching window: when each delivery reached the function.
     */
    void retryGaps(FunctionSpec upload, List<Integer> windows, int pastes, int memoryMb) throws Exception {
        HttpServer failingS3 = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        failingS3.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "<Error><Code>InternalError</Code><Message>benchmark: S3 is failing</Message></Error>"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(500, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        failingS3.start();
        String s3 = "http://127.0.0.1:" + failingS3.getAddress().getPort();
        try {
            line.accept(
                    "| batching window | gap 1 (1 s) | gap 2 (2 s) | gap 3 (4 s) | gap 4 (8 s) | gap 5 (16 s) | first to 6th attempt (31 s) | 6 attempts made / jobs |");
            line.accept("|---|---|---|---|---|---|---|---|");
            for (int window : windows) {
                String queue = services.createQueue("bench-gaps-w" + window);
                String marker = "bench-gaps-w" + window;
                // primed at Init, as a SnapStart restore is: otherwise gap 1 also carries the first
                // attempt's cold code paths (about 0.8 s on this machine), which is not the backoff
                FunctionSpec spec = primingAtInit
                        .primed(upload)
                        .withEnv("PASTEBIN_UPLOAD_QUEUE_URL", queue)
                        .withEnv("AWS_ENDPOINT_URL_S3", s3)
                        .withEnv("PASTEBIN_BREAKER_ENABLED", "false");
                try (Instance u = started(spec, memoryMb)) {
                    var function = new InstanceFunction(u);
                    try (SqsEventSourceMapping esm = mapping(function, queue, 10, window)) {
                        esm.start();
                        services.seedBacklog(pastes, marker, queue, Services.content(1024));
                        long limit = System.nanoTime() + 120_000_000_000L;
                        // A transient failure never fails a paste: after its 6 fast attempts it goes on to slow
                        // retries.
                        while (services.countAttempted(marker, NOMINAL_GAPS.length + 1) < pastes
                                && System.nanoTime() < limit) {
                            Thread.sleep(250);
                        }
                    }
                    List<List<Double>> gaps = new ArrayList<>();
                    for (int k = 0; k < NOMINAL_GAPS.length; k++) {
                        gaps.add(new ArrayList<>());
                    }
                    List<Double> spans = new ArrayList<>();
                    for (Map.Entry<String, List<Long>> e : function.deliveries().entrySet()) {
                        List<Long> t = e.getValue().stream().sorted().toList();
                        for (int k = 1; k < t.size() && k <= NOMINAL_GAPS.length; k++) {
                            gaps.get(k - 1).add((t.get(k) - t.get(k - 1)) / 1e9);
                        }
                        // the fast schedule only: a slow retry may have followed before the mapping stopped
                        spans.add((t.get(Math.min(t.size(), NOMINAL_GAPS.length + 1) - 1) - t.getFirst()) / 1e9);
                    }
                    StringBuilder row = new StringBuilder("| " + window + " s |");
                    for (List<Double> g : gaps) {
                        row.append(' ')
                                .append(g.isEmpty() ? "n/a" : new Stats(g).medRange("%.2f"))
                                .append(" |");
                    }
                    row.append(' ')
                            .append(new Stats(spans).medRange("%.1f"))
                            .append(" | ")
                            .append(services.countAttempted(marker, NOMINAL_GAPS.length + 1))
                            .append(" / ")
                            .append(pastes)
                            .append(" |");
                    line.accept(row.toString());
                    progress.println("  gaps, window " + window + " s: " + row);
                }
            }
        } finally {
            failingS3.stop(0);
        }
        line.accept("");
        line.accept(
                "Seconds between two deliveries of the same job to the function, median (min-max) over " + pastes
                        + " jobs, each failing "
                        + "every S3 attempt with 500 InternalError (breaker disabled, the function primed at Init); the nominal delay is in the header (±0.2 s jitter). "
                        + "The upload function is fed by the local runtime's event source mapping with batch size 10 and the window of the row.");
        line.accept("");
    }

    /** The short code in a create answer (API Gateway response; its body may be base64). */
    private static String shortCode(String response) {
        JsonNode answer = Json.parseOrNull(response.getBytes(StandardCharsets.UTF_8));
        if (answer == null || !answer.hasNonNull("body")) {
            throw new IllegalStateException("create did not answer with a body: " + response);
        }
        String body = answer.get("body").asText();
        if (answer.path("isBase64Encoded").asBoolean(false)) {
            body = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
        }
        JsonNode paste = Json.parseOrNull(body.getBytes(StandardCharsets.UTF_8));
        if (paste == null || !paste.hasNonNull("shortCode")) {
            throw new IllegalStateException("create answered without a short code: " + response);
        }
        return paste.get("shortCode").asText();
    }
}
