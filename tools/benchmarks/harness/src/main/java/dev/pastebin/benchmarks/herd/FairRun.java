package dev.pastebin.benchmarks.herd;

import dev.pastebin.benchmarks.queues.QueueEngine;
import dev.pastebin.core.access.ApiKeyTokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fair to every client (docs/scale.md, "One client's backlog"): on the real local system ({@link HerdSystem},
 * {@code CreateAccess=api-key}) {@code --light} clients, each with its own API key, create pastes through the API at
 * {@code --rate} a second each for {@code --seconds}, first alone, then again beside one heavy client at
 * {@code --heavy-factor} times their rate; in each phase S3 is down from {@code --outage-from} for
 * {@code --outage-seconds} (0: no outage). Each paste's time to readable is the database's: from its row's insert to
 * its PROCESSED. Prints, per client, p50 and p99 of it alone and with the heavy client, and the light clients' p99
 * with the heavy one against alone (the issue's bound: within 2x).
 *
 * <p>The creates are paced open loop (each client's n-th create starts at n ÷ rate seconds, whatever the earlier
 * ones took), each on a virtual thread of its own, so that a slow create never delays the next (a fixed pool of 64 did when creates took over 6 s).
 *
 * <p>Usage: {@code FairRun --repo . [--light 9] [--rate 1] [--heavy-factor 10] [--seconds 60] [--outage-from 20]
 * [--outage-seconds 20] [--warmup 10] [--fairness-delay] [--instances 1] [--port 0] [--prefix fair] [--keep]}
 *
 * <p>{@code --instances N} lets the run command start up to N execution environments of each function, as Lambda
 * starts one per concurrent request: with one (the run command's default) the creates of a burst wait for each
 * other in front of the create function, which Lambda's concurrency would serve side by side.
 */
public final class FairRun {

    private static final Pattern SHORT_CODE = Pattern.compile("\"shortCode\"\\s*:\\s*\"([^\"]+)\"");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private FairRun() {}

    /** A client: its API key and the row's id, and its creates a second. */
    private record Client(String name, UUID keyId, String key, double rate) {}

    /**
     * One phase's pastes (short code to client), its creates' milliseconds, and the outage's bounds (null without
     * one), by this machine's clock, which the database's shares.
     */
    private record Phase(
            Map<String, Client> pastes,
            Map<String, Instant> requestedAt,
            List<Long> createMillis,
            boolean drained,
            Instant outageBegan,
            Instant outageEnded) {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(".");
        int light = 9;
        double rate = 1;
        int heavyFactor = 10;
        int seconds = 60;
        int outageFrom = 20;
        int outageSeconds = 20;
        int port = 0;
        int warmup = 10;
        int instances = 1;
        boolean fairnessDelay = false;
        String prefix = "fair";
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--keep")) {
                keep = true;
                continue;
            }
            if (option.equals("--fairness-delay")) {
                fairnessDelay = true;
                continue;
            }
            String value = ++i < args.length ? args[i] : "";
            switch (option) {
                case "--repo" -> repo = Path.of(value);
                case "--light" -> light = Integer.parseInt(value);
                case "--rate" -> rate = Double.parseDouble(value);
                case "--heavy-factor" -> heavyFactor = Integer.parseInt(value);
                case "--seconds" -> seconds = Integer.parseInt(value);
                case "--outage-from" -> outageFrom = Integer.parseInt(value);
                case "--outage-seconds" -> outageSeconds = Integer.parseInt(value);
                case "--port" -> port = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--instances" -> instances = Integer.parseInt(value);
                case "--prefix" -> prefix = value;
                default ->
                    throw new IllegalArgumentException("unknown option " + option
                            + "; usage: fair.sh [--light 9] [--rate 1] [--heavy-factor 10] [--seconds 60]"
                            + " [--outage-from 20] [--outage-seconds 20] [--warmup 10] [--fairness-delay]"
                            + " [--instances 1] [--port 0]"
                            + " [--prefix fair] [--keep]");
            }
        }
        if (instances < 1) {
            throw new IllegalArgumentException("--instances is at least 1, got " + instances);
        }
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
        Path logs =
                repo.resolve("tools/benchmarks/harness/target/fair-" + runId).toAbsolutePath();
        String localStack = System.getenv().getOrDefault("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566");
        System.err.printf(
                "fair: run %s, %d light clients at %.2f/s, one at %dx, %d s a phase, up to %d environments a function,"
                        + " logs in %s%n",
                runId, light, rate, heavyFactor, seconds, instances, logs);
        try (HerdSystem system = HerdSystem.start(
                        repo.toAbsolutePath(),
                        prefix,
                        runId,
                        logs,
                        port,
                        localStack,
                        // the fairness delay is the project's own mechanism, measured on LocalStack's SQS
                        new QueueEngine.LocalStackEngine(localStack),
                        List.of(
                                "--parameter-overrides",
                                "CreateAccess=api-key" + (fairnessDelay ? " UploadFairnessDelay=true" : ""),
                                "--instances",
                                Integer.toString(instances)));
                Connection db = system.connect()) {
            List<Client> lights = new ArrayList<>();
            for (int i = 0; i < light; i++) {
                lights.add(issue(db, "light-" + (i + 1), rate));
            }
            Client heavy = issue(db, "heavy", rate * heavyFactor);
            if (warmup > 0) {
                // every function warm and the breaker's window full of successes before anything is measured
                List<Client> everyone = new ArrayList<>(lights);
                everyone.add(issue(db, "warm-up", rate));
                phase(system, db, everyone, warmup, 0, 0, "warm-up");
            }
            Phase alone = phase(system, db, lights, seconds, outageFrom, outageSeconds, "alone");
            List<Client> all = new ArrayList<>(lights);
            all.add(heavy);
            Phase beside = phase(system, db, all, seconds, outageFrom, outageSeconds, "with the heavy client");
            System.out.println("Time to readable from the create's request (the client's view):");
            System.out.print(report(
                    lights,
                    heavy,
                    timesToReadable(db, alone, false, false),
                    timesToReadable(db, beside, false, false),
                    alone,
                    beside,
                    seconds,
                    outageFrom,
                    outageSeconds));
            System.out.println();
            System.out.println("Time to readable from the row's insert (the queue and the upload only):");
            System.out.print(report(
                    lights,
                    heavy,
                    timesToReadable(db, alone, false, true),
                    timesToReadable(db, beside, false, true),
                    alone,
                    beside,
                    seconds,
                    outageFrom,
                    outageSeconds));
            List<Long> aloneOutside = lightTimes(timesToReadable(db, alone, true, false), lights);
            List<Long> besideOutside = lightTimes(timesToReadable(db, beside, true, false), lights);
            if (outageSeconds > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "light pastes created with S3 up (before the outage or after the recovery), from the request:"
                                + " alone %d, p50 / p99"
                                + " %d / %d ms; beside the heavy client %d, %d / %d ms; p99 beside ÷ alone %.2fx%n",
                        aloneOutside.size(),
                        percentile(aloneOutside, 50),
                        percentile(aloneOutside, 99),
                        besideOutside.size(),
                        percentile(besideOutside, 50),
                        percentile(besideOutside, 99),
                        percentile(aloneOutside, 99) == 0
                                ? 0
                                : (double) percentile(besideOutside, 99) / percentile(aloneOutside, 99));
            }
            if (alone.drained() && beside.drained() && !keep) {
                system.removeResourcesOnClose();
            }
        }
    }

    /** An API key of the run's database, written as {@code keys create} writes one. */
    private static Client issue(Connection db, String name, double rate) throws SQLException {
        ApiKeyTokens.Issued issued = new ApiKeyTokens().issue();
        try (PreparedStatement insert =
                db.prepareStatement("INSERT INTO api_keys (name, key_sha256) VALUES (?, ?) RETURNING id")) {
            insert.setString(1, "fair " + name);
            insert.setString(2, issued.sha256());
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return new Client(name, row.getObject(1, UUID.class), issued.key(), rate);
            }
        }
    }

    private static Phase phase(
            HerdSystem system,
            Connection db,
            List<Client> clients,
            int seconds,
            int outageFrom,
            int outageSeconds,
            String name)
            throws Exception {
        Map<String, Client> pastes = new ConcurrentHashMap<>();
        Map<String, Instant> requestedAt = new ConcurrentHashMap<>();
        List<Long> millis = new ArrayList<>();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        List<Future<?>> creates = new ArrayList<>();
        long started = System.nanoTime();
        boolean outage = outageSeconds > 0;
        boolean down = false;
        Instant outageBegan = null;
        Instant outageEnded = null;
        // every create's start, in order: client c's n-th at n / rate s
        List<double[]> schedule = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            int count = (int) Math.round(seconds * clients.get(c).rate());
            for (int n = 0; n < count; n++) {
                schedule.add(new double[] {n / clients.get(c).rate(), c});
            }
        }
        schedule.sort((a, b) -> Double.compare(a[0], b[0]));
        System.err.printf("fair: phase %s, %d creates%n", name, schedule.size());
        for (double[] at : schedule) {
            long dueNanos = started + (long) (at[0] * 1e9);
            if (outage && !down && at[0] >= outageFrom) {
                system.s3Outage();
                outageBegan = Instant.now();
                down = true;
                System.err.printf("fair: S3 down at %.1f s%n", (System.nanoTime() - started) / 1e9);
            }
            if (down && at[0] >= outageFrom + outageSeconds) {
                system.s3Recovers();
                outageEnded = Instant.now();
                down = false;
                outage = false;
                System.err.printf("fair: S3 back at %.1f s%n", (System.nanoTime() - started) / 1e9);
            }
            long wait = dueNanos - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            Client client = clients.get((int) at[1]);
            Instant requested = Instant.now();
            creates.add(pool.submit(() -> {
                String code = createOne(system.api(), client, millis);
                pastes.put(code, client);
                requestedAt.put(code, requested);
                return null;
            }));
        }
        if (down) {
            system.s3Recovers();
            outageEnded = Instant.now();
        }
        for (Future<?> f : creates) {
            f.get();
        }
        pool.shutdown();
        Instant until = Instant.now().plus(Duration.ofMinutes(10));
        boolean drained = processed(db, pastes.keySet()) == pastes.size();
        while (!drained && Instant.now().isBefore(until)) {
            Thread.sleep(250);
            drained = processed(db, pastes.keySet()) == pastes.size();
        }
        System.err.printf(
                "fair: phase %s %s after %.1f s%n",
                name, drained ? "drained" : "NOT drained", (System.nanoTime() - started) / 1e9);
        return new Phase(pastes, requestedAt, millis, drained, outageBegan, outageEnded);
    }

    private static String createOne(URI api, Client client, List<Long> millis) throws Exception {
        for (int attempt = 1; ; attempt++) {
            long started = System.nanoTime();
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(api.resolve("/pastes"))
                            .header("Content-Type", "text/plain; charset=utf-8")
                            .header("Authorization", "Bearer " + client.key())
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "fair paste of " + client.name() + ": " + "x".repeat(200)))
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

    private static long processed(Connection db, java.util.Set<String> codes) throws SQLException {
        try (PreparedStatement count = db.prepareStatement(
                "SELECT count(*) FROM pastes WHERE status = 'PROCESSED' AND short_code = ANY (?)")) {
            count.setArray(1, db.createArrayOf("text", codes.toArray()));
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static List<Long> lightTimes(Map<Client, List<Long>> times, List<Client> lights) {
        List<Long> all = new ArrayList<>();
        for (Client c : lights) {
            all.addAll(times.getOrDefault(c, List.of()));
        }
        return all;
    }

    /**
     * Each processed paste's milliseconds to its PROCESSED, by client: from its create's request (when the client
     * sent it, by this machine's clock, which the database's shares) or, {@code fromInsert}, from its row's insert;
     * {@code withS3Up}: only the pastes inserted before the outage began or after it ended.
     */
    private static Map<Client, List<Long>> timesToReadable(
            Connection db, Phase phase, boolean withS3Up, boolean fromInsert) throws SQLException {
        Map<Client, List<Long>> times = new HashMap<>();
        boolean filter = withS3Up && phase.outageBegan() != null;
        try (PreparedStatement select =
                db.prepareStatement("SELECT short_code, (extract(epoch FROM updated_at - created_at) * 1000)::bigint,"
                        + " (extract(epoch FROM updated_at) * 1000)::bigint FROM pastes"
                        + " WHERE status = 'PROCESSED' AND short_code = ANY (?)"
                        + (filter ? " AND (created_at < ? OR created_at > ?)" : ""))) {
            Array codes = db.createArrayOf("text", phase.pastes().keySet().toArray());
            select.setArray(1, codes);
            if (filter) {
                select.setTimestamp(2, java.sql.Timestamp.from(phase.outageBegan()));
                select.setTimestamp(3, java.sql.Timestamp.from(phase.outageEnded()));
            }
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    String code = rs.getString(1);
                    long millis = fromInsert
                            ? rs.getLong(2)
                            : rs.getLong(3) - phase.requestedAt().get(code).toEpochMilli();
                    times.computeIfAbsent(phase.pastes().get(code), c -> new ArrayList<>())
                            .add(millis);
                }
            }
        }
        return times;
    }

    private static long percentile(List<Long> values, double p) {
        if (values == null || values.isEmpty()) {
            return 0;
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static String report(
            List<Client> lights,
            Client heavy,
            Map<Client, List<Long>> alone,
            Map<Client, List<Long>> beside,
            Phase alonePhase,
            Phase besidePhase,
            int seconds,
            int outageFrom,
            int outageSeconds) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "%d s a phase; S3 %s%n%n",
                seconds,
                outageSeconds > 0
                        ? "down from " + outageFrom + " s to " + (outageFrom + outageSeconds) + " s"
                        : "healthy throughout"));
        out.append("| client | creates a second | pastes alone / beside | time to readable alone, p50 / p99"
                + " | beside the heavy client, p50 / p99 | p99 beside ÷ alone |\n");
        out.append("|---|---:|---:|---:|---:|---:|\n");
        List<Long> allAlone = new ArrayList<>();
        List<Long> allBeside = new ArrayList<>();
        double worst = 0;
        for (Client c : lights) {
            List<Long> a = alone.getOrDefault(c, List.of());
            List<Long> b = beside.getOrDefault(c, List.of());
            allAlone.addAll(a);
            allBeside.addAll(b);
            double ratio = percentile(a, 99) == 0 ? 0 : (double) percentile(b, 99) / percentile(a, 99);
            worst = Math.max(worst, ratio);
            out.append(String.format(
                    Locale.ROOT,
                    "| %s | %.2f | %d / %d | %d / %d ms | %d / %d ms | %.2fx |%n",
                    c.name(),
                    c.rate(),
                    a.size(),
                    b.size(),
                    percentile(a, 50),
                    percentile(a, 99),
                    percentile(b, 50),
                    percentile(b, 99),
                    ratio));
        }
        out.append(String.format(
                Locale.ROOT,
                "| **light, all %d** | %.2f | %d / %d | %d / %d ms | %d / %d ms | **%.2fx** (worst client %.2fx) |%n",
                lights.size(),
                lights.get(0).rate() * lights.size(),
                allAlone.size(),
                allBeside.size(),
                percentile(allAlone, 50),
                percentile(allAlone, 99),
                percentile(allBeside, 50),
                percentile(allBeside, 99),
                percentile(allAlone, 99) == 0 ? 0 : (double) percentile(allBeside, 99) / percentile(allAlone, 99),
                worst));
        List<Long> h = beside.getOrDefault(heavy, List.of());
        out.append(String.format(
                Locale.ROOT,
                "| heavy | %.2f | - / %d | - | %d / %d ms | - |%n",
                heavy.rate(),
                h.size(),
                percentile(h, 50),
                percentile(h, 99)));
        out.append(String.format(
                Locale.ROOT,
                "%ncreate latency (client side), p50 / p99: alone %d / %d ms, beside the heavy client %d / %d ms;"
                        + " drained: %s / %s%n",
                percentile(alonePhase.createMillis(), 50),
                percentile(alonePhase.createMillis(), 99),
                percentile(besidePhase.createMillis(), 50),
                percentile(besidePhase.createMillis(), 99),
                alonePhase.drained(),
                besidePhase.drained()));
        return out.toString();
    }
}
