package dev.pastebin.benchmarks.herd;

import dev.pastebin.benchmarks.queues.QueueEngine;
import dev.pastebin.local.cli.EnvVarsFile;
import dev.pastebin.local.template.SamTemplate;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The herd after an outage (docs/scale.md): on the real local system ({@link HerdSystem}) S3 goes down, N pastes
 * are created through the API, the run waits until the open breaker holds every one of their upload jobs (and,
 * with {@code --outage-seconds}, until the outage has lasted that long), then S3 comes back, and the release is
 * measured ({@link HerdRecorder}) until every paste is PROCESSED: time from recovery to the last one stored,
 * S3 PUTs per second, the database's backends, the upload invocations in flight, the breaker's transitions.
 *
 * <p>Pastes are created through the local API's POST /pastes by {@code --creators} clients at once, as users would
 * create them, each create's latency measured: the held ones during the outage, then, once they are all stored,
 * {@code --baseline} more with S3 healthy on the same warm system, so that what the outage does to creates shows
 * beside what they cost with S3 up. {@code --via queue} creates them as the create function does instead ({@link JobSender}: the
 * row, then the job on the queue; no latency, no baseline), much faster.
 *
 * <p>{@code --queue-engine elasticmq} runs SQS on an ElasticMQ started for the run ({@link QueueEngine}; on
 * {@code --elasticmq-port}, a free port unless given) instead of LocalStack's, S3 staying LocalStack's.
 *
 * <p>A run that drained removes its database, queues and bucket unless {@code --keep}; one that did not keeps them.
 *
 * <p>Usage: {@code HerdRun --repo . [--pastes 5000] [--outage-seconds 0] [--port 0] [--via api|queue] [--creators 1]
 * [--baseline 200] [--prefix herd] [--queue-engine localstack|elasticmq] [--elasticmq-port 0] [--env-vars FILE]...
 * [--instances 1] [--keep]};
 * {@code --prefix} names the run's database, queues and bucket
 * ({@code <prefix>_<run>}, {@code <prefix>-<run>-uploads}, ...; a name S3 accepts for a bucket);
 * {@code --env-vars} gives the functions settings of the run's own, on top of the run command's;
 * {@code --instances} lets the run command start up to that many execution environments of each function, as Lambda
 * starts one per concurrent request (with {@code --creators} as many, the creates no longer queue in front of one).
 */
public final class HerdRun {

    private static final Pattern SHORT_CODE = Pattern.compile("\"shortCode\"\\s*:\\s*\"([^\"]+)\"");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(15);

    private HerdRun() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(".");
        int pastes = 5000;
        int outageSeconds = 0;
        int port = 0;
        // One: the run command runs one environment of the create function unless --instances says more, so more
        // creators only queue in front of it (the same creates a second, each create's time the wait's); Lambda runs
        // one per concurrent request.
        int creators = 1;
        int baseline = 200;
        String prefix = "herd";
        boolean viaApi = true;
        boolean keep = false;
        String queueEngine = "localstack";
        int elasticMqPort = 0;
        List<Path> envVars = new ArrayList<>();
        int instances = 1;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--keep")) {
                keep = true;
                continue;
            }
            String value = ++i < args.length ? args[i] : "";
            switch (option) {
                case "--repo" -> repo = Path.of(value);
                case "--pastes" -> pastes = Integer.parseInt(value);
                case "--outage-seconds" -> outageSeconds = Integer.parseInt(value);
                case "--port" -> port = Integer.parseInt(value);
                case "--creators" -> creators = Integer.parseInt(value);
                case "--baseline" -> baseline = Integer.parseInt(value);
                case "--prefix" -> prefix = value;
                case "--queue-engine" -> queueEngine = QueueEngine.parse(value);
                case "--elasticmq-port" -> elasticMqPort = Integer.parseInt(value);
                case "--env-vars" -> envVars.add(Path.of(value));
                case "--instances" -> instances = Integer.parseInt(value);
                case "--via" ->
                    viaApi = switch (value) {
                        case "api" -> true;
                        case "queue" -> false;
                        default -> throw new IllegalArgumentException("--via is queue or api");
                    };
                default ->
                    throw new IllegalArgumentException("unknown option " + option
                            + "; usage: herd.sh [--pastes 5000] [--outage-seconds 0] [--port 0] [--via api|queue]"
                            + " [--creators 1] [--baseline 200] [--prefix herd]"
                            + " [--queue-engine localstack|elasticmq] [--elasticmq-port 0] [--env-vars FILE]..."
                            + " [--instances 1] [--keep]");
            }
        }
        if (instances < 1) {
            throw new IllegalArgumentException("--instances is at least 1, got " + instances);
        }
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
        Path logs =
                repo.resolve("tools/benchmarks/harness/target/herd-" + runId).toAbsolutePath();
        String localStack = System.getenv().getOrDefault("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566");
        System.err.printf("herd: run %s, %d pastes, logs in %s%n", runId, pastes, logs);
        List<Path> settings = settingsOfTheRun(envVars, logs);
        int uploadParallelism = uploadParallelism(repo, settings);
        List<String> runArguments = new ArrayList<>();
        settings.forEach(file -> runArguments.addAll(List.of("--env-vars", file.toString())));
        runArguments.addAll(List.of("--instances", Integer.toString(instances)));

        try (QueueEngine queues = QueueEngine.start(
                        queueEngine, repo.toAbsolutePath(), elasticMqPort, logs.resolve("elasticmq.log"), localStack);
                HerdSystem system = HerdSystem.start(
                        repo.toAbsolutePath(), prefix, runId, logs, port, localStack, queues, runArguments);
                Connection db = system.connect()) {
            System.err.println("herd: SQS is " + queues.description());
            system.s3Outage();
            Instant outageStarted = Instant.now();
            List<Long> outageCreates = new ArrayList<>();
            List<String> codes = viaApi
                    ? create(system.api(), pastes, creators, n -> content("paste " + n), outageCreates)
                    : JobSender.send(db, system.queue(), system.sqsEndpoint(), pastes);
            Duration creating = Duration.between(outageStarted, Instant.now());
            System.err.printf(
                    "herd: %d pastes created in %.1f s with S3 down%n", codes.size(), creating.toMillis() / 1000.0);
            awaitAllHeld(db, codes.size(), Duration.ofMinutes(10));
            Duration heldAfter = Duration.between(outageStarted, Instant.now());
            long untilRecovery = outageSeconds * 1000L
                    - Duration.between(outageStarted, Instant.now()).toMillis();
            if (untilRecovery > 0) {
                Thread.sleep(untilRecovery);
            }
            HerdRecorder recorder = new HerdRecorder(system, system.runtimeLog());
            Thread.sleep(1000); // a baseline second of the outage
            long putsBefore = system.s3Puts();
            system.s3Recovers();
            long recoveredAt = recorder.now();
            Duration outage = Duration.between(outageStarted, Instant.now());
            System.err.printf(
                    "herd: all held %.1f s into the outage; S3 recovered after %.1f s%n",
                    heldAfter.toMillis() / 1000.0, outage.toMillis() / 1000.0);
            boolean drained = awaitAllProcessed(db, codes.size(), DRAIN_LIMIT);
            Thread.sleep(2000); // the last transitions and PUTs
            recorder.close();
            int readable = readBack(system.api(), codes, 200);
            double lastProcessed = lastProcessedAfterRecovery(db, outage, outageStarted);
            // The same creates with S3 healthy, on the same warm system, once the herd has drained: before the outage,
            // their successes would still count in the breaker's window and delay its opening.
            List<Long> healthyCreates = new ArrayList<>();
            boolean baselineStored = true;
            if (viaApi && baseline > 0) {
                create(
                        system.api(),
                        baseline,
                        creators,
                        n -> "herd paste " + n + ", written with S3 up",
                        healthyCreates);
                baselineStored = awaitAllProcessed(db, codes.size() + baseline, Duration.ofMinutes(5));
                System.err.printf("herd: %d pastes created with S3 healthy%n", baseline);
            }
            HerdReport report = new HerdReport(
                    codes.size(),
                    creating,
                    heldAfter,
                    outage,
                    putsBefore,
                    recoveredAt,
                    drained,
                    readable,
                    lastProcessed,
                    healthyCreates,
                    outageCreates,
                    uploadParallelism,
                    recorder,
                    RuntimeLogFigures.read(system.runtimeLog()));
            try (PrintWriter timeline = new PrintWriter(Files.newBufferedWriter(logs.resolve("timeline.csv")))) {
                report.timeline(timeline);
            }
            System.out.printf("Queue engine: %s%n%n", queues.description());
            System.out.print(report.summary());
            System.err.println("herd: per-second timeline in " + logs.resolve("timeline.csv"));
            if (drained && baselineStored && !keep) {
                system.removeResourcesOnClose();
            }
        }
    }

    /**
     * The run's own settings for the functions: each {@code --env-vars} file copied into the logs, where the run's
     * figures are, to be given to the run command after its own. A copy, as the file may be a process substitution,
     * which can be read once, by this process only.
     */
    private static List<Path> settingsOfTheRun(List<Path> envVars, Path logs) throws IOException {
        List<Path> copies = new ArrayList<>();
        Files.createDirectories(logs);
        for (int n = 0; n < envVars.size(); n++) {
            String settings = Files.readString(envVars.get(n));
            Path copy = Files.writeString(logs.resolve("env-vars-" + (n + 1) + ".json"), settings);
            System.err.printf("herd: the functions' settings of the run (%s): %s%n", copy, settings.strip());
            copies.add(copy);
        }
        return copies;
    }

    /**
     * How many of a batch's records an upload invocation runs at once in this run: the template's
     * {@code PASTEBIN_UPLOAD_PARALLELISM} (its {@code UploadParallelism} parameter), or the run's {@code --env-vars}.
     */
    private static int uploadParallelism(Path repo, List<Path> envVars) {
        String variable = "PASTEBIN_UPLOAD_PARALLELISM";
        String function = "UploadPasteFunction";
        String template = String.valueOf(SamTemplate.read(repo.resolve("infra/template.yaml"))
                .function(function)
                .environment()
                .get(variable));
        return Integer.parseInt(EnvVarsFile.read(envVars).forFunction(function).getOrDefault(variable, template));
    }

    /** Creates {@code pastes} through the API, {@code creators} at a time; each create's milliseconds go to {@code millis}. */
    private static List<String> create(
            URI api, int pastes, int creators, IntFunction<String> content, List<Long> millis) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(creators);
        List<Future<String>> created = new ArrayList<>();
        for (int i = 0; i < pastes; i++) {
            int n = i;
            created.add(pool.submit(() -> createOne(api, content.apply(n), millis)));
        }
        List<String> codes = new ArrayList<>();
        for (Future<String> f : created) {
            codes.add(f.get());
        }
        pool.shutdown();
        return codes;
    }

    /** The content of a herd paste: about 250 bytes. */
    static String content(String name) {
        return "herd " + name + ": written while S3 was down. " + "x".repeat(200);
    }

    /** One create, retried on a refusal; the answered attempt's milliseconds go to {@code millis}. */
    private static String createOne(URI api, String content, List<Long> millis)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            long started = System.nanoTime();
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(api.resolve("/pastes"))
                            .header("Content-Type", "text/plain; charset=utf-8")
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(content))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher code = SHORT_CODE.matcher(response.body());
            if (response.statusCode() == 201 && code.find()) {
                synchronized (millis) {
                    millis.add((System.nanoTime() - started) / 1_000_000);
                }
                return code.group(1);
            }
            if (attempt == 5) {
                throw new IllegalStateException("create answered " + response.statusCode() + ": " + response.body());
            }
            Thread.sleep(500L * attempt);
        }
    }

    private static void awaitAllHeld(Connection db, int pastes, Duration limit)
            throws SQLException, InterruptedException {
        Instant until = Instant.now().plus(limit);
        while (count(db, "SELECT count(*) FROM pastes WHERE first_held_at IS NOT NULL") < pastes) {
            if (Instant.now().isAfter(until)) {
                throw new IllegalStateException("not every job held by the breaker within " + limit);
            }
            Thread.sleep(500);
        }
    }

    private static boolean awaitAllProcessed(Connection db, int pastes, Duration limit)
            throws SQLException, InterruptedException {
        Instant until = Instant.now().plus(limit);
        while (count(db, "SELECT count(*) FROM pastes WHERE status = 'PROCESSED'") < pastes) {
            if (Instant.now().isAfter(until)) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }

    /** Seconds from recovery to the last paste's PROCESSED, by the database's clock (the same machine's). */
    private static double lastProcessedAfterRecovery(Connection db, Duration outage, Instant outageStarted)
            throws SQLException {
        Instant recovered = outageStarted.plus(outage);
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT max(updated_at) FROM pastes WHERE status = 'PROCESSED'")) {
            rs.next();
            return Duration.between(recovered, rs.getTimestamp(1).toInstant()).toMillis() / 1000.0;
        }
    }

    /** Reads {@code sample} random pastes back through the API; how many answered 200 with their content. */
    private static int readBack(URI api, List<String> codes, int sample) throws IOException, InterruptedException {
        List<String> shuffled = new ArrayList<>(codes);
        Collections.shuffle(shuffled, new Random(7));
        int readable = 0;
        for (String code : shuffled.subList(0, Math.min(sample, shuffled.size()))) {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(api.resolve("/pastes/" + code))
                            .timeout(Duration.ofSeconds(30))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() == 200 && response.body().contains("written while S3 was down")) {
                readable++;
            }
        }
        return readable;
    }

    private static long count(Connection db, String sql) throws SQLException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
