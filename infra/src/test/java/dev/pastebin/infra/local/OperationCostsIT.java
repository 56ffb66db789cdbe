package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.PostgresWireMeter;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.faults.FaultProxy.Fault;
import dev.pastebin.faults.Service;
import dev.pastebin.local.Json;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The work each operation costs (docs/scale.md, "Capacity model"), measured on the local system: the real
 * function artifacts on the local runtime, each function behind a {@link PostgresWireMeter} of its own (database
 * round trips, time, connections opened and kept busy) and {@link AwsProxies} of its own (the fault-proxy
 * module's proxies, counting its S3, SQS and Secrets Manager calls by operation), on a database of its own. Each
 * operation runs {@code costs.repetitions} times (1 here, more through tools/benchmarks/costs.sh), and the counts per
 * operation must equal the table in docs/scale.md, so that table cannot drift from the code. The times are
 * printed, never asserted.
 */
@RealServices
class OperationCostsIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> FUNCTIONS = List.of(
            "CreatePasteFunction",
            "ReadPasteFunction",
            "RemovePasteFunction",
            "UploadPasteFunction",
            "SweeperFunction");
    private static final int REPETITIONS = Integer.getInteger("costs.repetitions", 1);
    private static final int SWEEP_ROWS = Integer.getInteger("costs.sweepRows", 600);
    private static final Path SCALE_DOC = TestSupport.repositoryRoot().resolve("docs/scale.md");
    /** A sweep begins with the oldest-pending-paste gauge, in a read-only transaction. */
    private static final List<String> SWEEP_FIRST_STATEMENTS =
            List.of("BEGIN READ ONLY", "SELECT coalesce(extract(epoch FROM now() - min(created_at)");
    /** Samples of a sweep before giving up on a whole one (a loaded machine can delay the window). */
    private static final int MAX_SWEEP_ATTEMPTS = 3;

    private static final String TABLE_HEADER = "| operation | function | DB round trips | DB ms | connection busy ms "
            + "| connections opened | AWS calls | function ms |";

    private static String databaseUrl;
    private static final Map<String, PostgresWireMeter> DATABASE = new HashMap<>();
    private static final Map<String, AwsProxies> AWS = new HashMap<>();
    private static LocalRuntimeProcess runtime;

    @BeforeAll
    static void start() throws Exception {
        databaseUrl = OwnDatabase.Create.migrated("costs");
        URI database = URI.create(databaseUrl.substring("jdbc:".length()));
        URI localStack = URI.create(env("AWS_ENDPOINT_URL", "http://127.0.0.1:4566"));
        Map<String, Map<String, String>> environment = new HashMap<>();
        for (String function : FUNCTIONS) {
            PostgresWireMeter db = PostgresWireMeter.start(database.getHost(), database.getPort());
            AwsProxies aws = AwsProxies.start(localStack);
            DATABASE.put(function, db);
            AWS.put(function, aws);
            String url = "jdbc:postgresql://127.0.0.1:" + db.port() + database.getPath()
                    + "?sslmode=disable&gssEncMode=disable"
                    + (function.equals("UploadPasteFunction") ? "&connectTimeout=2&socketTimeout=3" : "");
            Map<String, String> variables = new HashMap<>(aws.endpoints());
            variables.put("DATASOURCES_DEFAULT_URL", url);
            environment.put(function, variables);
        }
        // The sweeper fires every few seconds; each sweep is measured between two of its invocations.
        runtime = LocalRuntimeProcess.startWarm("local-costs", environment, List.of("--schedule-interval", "3s"));
        awaitOutput(Pattern.compile("Ready: \\d+ function\\(s\\) initialised"), Duration.ofMinutes(3));
    }

    @AfterAll
    static void stop() throws Exception {
        if (runtime != null) {
            runtime.close();
        }
        for (var meter : DATABASE.values()) {
            meter.close();
        }
        AWS.values().forEach(AwsProxies::close);
    }

    @Test
    void everyOperationCostsWhatTheCapacityModelSays() throws Exception {
        // Warm every function once: the table is about warm environments.
        Created warm = createAndStore("warm-up");
        read(warm.path(), Map.of(), 200);
        send(
                HttpRequest.newBuilder(runtime.uri(warm.path()))
                        .header("Paste-Delete-Token", warm.deleteToken())
                        .DELETE(),
                204);

        Map<String, Cost> costs = new LinkedHashMap<>();
        for (int i = 0; i < REPETITIONS; i++) {
            Window create = open("CreatePasteFunction");
            Window upload = open("UploadPasteFunction");
            Created paste = create("costs " + i + " " + UUID.randomUUID());
            add(costs, "create (POST /pastes)", create.close(1));
            awaitStored(paste.path());
            add(costs, "upload, stored", upload.close(1));

            Window stored = open("ReadPasteFunction");
            String etag = read(paste.path(), Map.of(), 200)
                    .headers()
                    .firstValue("ETag")
                    .orElseThrow();
            add(costs, "read, stored (GET 200)", stored.close(1));
            Window revalidated = open("ReadPasteFunction");
            read(paste.path(), Map.of("If-None-Match", etag), 304);
            add(costs, "read, revalidated (GET 304)", revalidated.close(1));
            Window head = open("ReadPasteFunction");
            send(
                    HttpRequest.newBuilder(runtime.uri(paste.path()))
                            .method("HEAD", HttpRequest.BodyPublishers.noBody()),
                    200);
            add(costs, "read, headers (HEAD 200)", head.close(1));
            Window missing = open("ReadPasteFunction");
            read("/pastes/Zz0000000" + (10 + i), Map.of(), 404);
            add(costs, "read, unknown or failed (GET 404)", missing.close(1));

            Window delete = open("RemovePasteFunction");
            send(
                    HttpRequest.newBuilder(runtime.uri(paste.path()))
                            .header("Paste-Delete-Token", paste.deleteToken())
                            .DELETE(),
                    204);
            add(costs, "delete (DELETE 204)", delete.close(1));

            Created once = createAndStore("{\"content\":\"read me once " + i + "\",\"readOnce\":true}");
            Window readOnce = open("ReadPasteFunction");
            read(once.path(), Map.of(), 200);
            add(costs, "read, read-once (GET 200)", readOnce.close(1));
            Window reveal = open("RemovePasteFunction");
            send(
                    HttpRequest.newBuilder(runtime.uri(once.path() + "/reveal"))
                            .POST(HttpRequest.BodyPublishers.noBody()),
                    200);
            add(costs, "reveal (POST …/reveal)", reveal.close(1));

            // Before the uploads below: with no object landing meanwhile, the sweep's orphan check finds none.
            emptyBucket();
            add(costs, "sweep, nothing to do", sweep(0, false));
            add(
                    costs,
                    "sweep, " + SWEEP_ROWS + " expired pastes",
                    sweep(SWEEP_ROWS, true)); // right after the one above

            // An S3 outage for the upload function alone, for one invocation: its one PutObject fails.
            FaultProxy uploadS3 = AWS.get("UploadPasteFunction").s3();
            Window failed = open("UploadPasteFunction");
            uploadS3.outage(Fault.INTERNAL_ERROR_500);
            Created retried = create("fails once " + i);
            Window.Result failedAttempt = failed.close(1);
            // Its row turns PROCESSED before its invocation ends: waiting for that end keeps the retry's tail out of
            // the next window (on a loaded machine it once ended inside it, which then closed on the wrong invocation).
            Window retry = open("UploadPasteFunction");
            uploadS3.recover();
            add(costs, "upload, S3 attempt failed", failedAttempt);
            awaitStored(retried.path());
            retry.close(1);

            openBreaker();
            Window held = open("UploadPasteFunction");
            Created waiting = create("held " + i);
            add(costs, "upload, held (breaker open)", held.close(1));
            closeBreaker();
            Window inProgress = open("ReadPasteFunction");
            read(waiting.path(), Map.of(), 202);
            add(costs, "read, in progress (GET 202)", inProgress.close(1));

            if (i < REPETITIONS - 1) {
                // its job comes back after the hold, and its upload ends, before the next round measures uploads
                Window released = open("UploadPasteFunction");
                awaitStored(waiting.path());
                released.close(1);
            }
        }

        if (Boolean.getBoolean("costs.trace")) {
            costs.forEach((operation, cost) -> cost.samples()
                    .forEach(sample -> System.out.println(
                            "[trace] " + operation + ": " + sample.database().roundTrips() + " round trips "
                                    + sample.statements() + " " + sample.aws())));
        }
        String table = table(costs);
        System.out.println("\nWork per operation (" + REPETITIONS + " repetition(s), local, warm):\n\n" + table);
        String report = System.getProperty("costs.report");
        if (report != null && !report.isBlank()) {
            Files.writeString(Path.of(report), table);
        }
        assertMatchesTheDocumentedTable(costs);
    }

    // --- measuring ---------------------------------------------------------------------------------------------

    /** What one function did between {@link #open} and {@link Window#close}. */
    record Sample(
            PostgresWireMeter.Reading database,
            Map<String, Long> aws,
            List<Long> functionMillis,
            List<String> statements) {}

    /** The samples of one operation. */
    record Cost(String function, List<Sample> samples) {

        double perRun(ToLongFunction<Sample> count) {
            return samples.stream().mapToLong(count).sum() / (double) samples.size();
        }

        Map<String, Double> awsPerRun() {
            Map<String, Double> calls = new TreeMap<>();
            samples.forEach(s -> s.aws().forEach((operation, n) -> calls.merge(operation, (double) n, Double::sum)));
            calls.replaceAll((operation, n) -> n / samples.size());
            calls.values().removeIf(n -> n == 0);
            return calls;
        }

        double medianFunctionMillis() {
            List<Long> all = samples.stream()
                    .flatMap(s -> s.functionMillis().stream())
                    .sorted()
                    .toList();
            return all.isEmpty() ? Double.NaN : all.get(all.size() / 2);
        }
    }

    private static void add(Map<String, Cost> costs, String operation, Window.Result result) {
        costs.computeIfAbsent(operation, o -> new Cost(result.function(), new ArrayList<>()))
                .samples()
                .add(result.sample());
    }

    private static Window open(String function) {
        return new Window(
                function,
                DATABASE.get(function).read(),
                DATABASE.get(function).traced(),
                AWS.get(function).calls(),
                runtime.output().length());
    }

    /** The readings of one function's meters when it was opened, and where its invocations' lines start. */
    record Window(
            String function, PostgresWireMeter.Reading database, int traced, Map<String, Long> aws, int outputOffset) {

        record Result(String function, Sample sample) {}

        /** Waits for {@code invocations} of the function to have ended since the window opened, then reads the meters. */
        Result close(int invocations) throws InterruptedException {
            Pattern line = invocationLine(function);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<Long> millis = List.of();
            while (System.nanoTime() < deadline) {
                millis = line.matcher(runtime.output().substring(outputOffset))
                        .results()
                        .map(m -> Long.parseLong(m.group(1)))
                        .toList();
                if (millis.size() >= invocations) {
                    break;
                }
                Thread.sleep(20);
            }
            if (millis.size() < invocations) {
                fail(function + ": " + invocations + " invocation(s) expected, " + millis.size() + " seen\n" + tail());
            }
            Map<String, Long> calls = new TreeMap<>();
            AWS.get(function)
                    .calls()
                    .forEach((operation, n) -> calls.put(operation, n - aws.getOrDefault(operation, 0L)));
            PostgresWireMeter meter = DATABASE.get(function);
            return new Result(
                    function, new Sample(meter.read().minus(database), calls, millis, meter.traceFrom(traced)));
        }
    }

    /** The runtime's line for one invocation: {@code Function  trigger  OK  123 ms}. */
    private static Pattern invocationLine(String function) {
        return Pattern.compile("(?m)^" + function + "\\s+.*?\\s(?:OK|ERROR \\S+)\\s+(\\d+) ms");
    }

    /**
     * One function's AWS endpoints: a fault proxy per service it calls, in front of LocalStack, so that its calls
     * are counted apart from the other functions'. The SDK's generic {@code AWS_ENDPOINT_URL} leads to the Secrets
     * Manager proxy too, so that a call to any other service is counted (and fails the table) rather than missed.
     */
    record AwsProxies(FaultProxy s3, FaultProxy sqs, FaultProxy secretsManager) implements AutoCloseable {

        static AwsProxies start(URI localStack) throws IOException {
            return new AwsProxies(
                    new FaultProxy(Service.S3, 0, localStack),
                    new FaultProxy(Service.SQS, 0, localStack),
                    new FaultProxy(Service.SECRETS_MANAGER, 0, localStack));
        }

        /** The function's environment variables that point its SDK clients at the proxies. */
        Map<String, String> endpoints() {
            return Map.of(
                    "AWS_ENDPOINT_URL_S3",
                    s3.endpoint().toString(),
                    "AWS_ENDPOINT_URL_SQS",
                    sqs.endpoint().toString(),
                    "AWS_ENDPOINT_URL_SECRETS_MANAGER",
                    secretsManager.endpoint().toString(),
                    "AWS_ENDPOINT_URL",
                    secretsManager.endpoint().toString());
        }

        /** The calls so far, by operation ({@code s3.PutObject}, {@code sqs.SendMessage}). */
        Map<String, Long> calls() {
            Map<String, Long> calls = new TreeMap<>();
            for (FaultProxy proxy : List.of(s3, sqs, secretsManager)) {
                proxy.requestCounts().forEach((operation, n) -> calls.merge(operation, n.longValue(), Long::sum));
            }
            return calls;
        }

        @Override
        public void close() {
            s3.close();
            sqs.close();
            secretsManager.close();
        }
    }

    // --- operations --------------------------------------------------------------------------------------------

    record Created(String path, String deleteToken) {}

    /** POST /pastes: a JSON document when {@code content} starts with '{', plain text otherwise. */
    private static Created create(String content) throws Exception {
        boolean json = content.startsWith("{");
        var response = send(
                HttpRequest.newBuilder(runtime.uri("/pastes"))
                        .header("Content-Type", json ? "application/json" : "text/plain; charset=utf-8")
                        .POST(HttpRequest.BodyPublishers.ofString(content)),
                201);
        JsonNode body = Json.MAPPER.readTree(response.body());
        return new Created(
                "/pastes/" + body.get("shortCode").asText(),
                body.get("deleteToken").asText());
    }

    /** Creates a paste and waits until it is stored and its upload's invocation has ended (unmeasured). */
    private static Created createAndStore(String content) throws Exception {
        Window upload = open("UploadPasteFunction");
        Created created = create(content);
        awaitStored(created.path());
        upload.close(1);
        return created;
    }

    private static HttpResponse<String> read(String path, Map<String, String> headers, int expected) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(runtime.uri(path)).GET();
        headers.forEach(request::header);
        return send(request, expected);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request, int expected) throws Exception {
        var response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), response.body() + "\n" + tail());
        return response;
    }

    /** Polls the paste's status in the database (so no read is counted) until it is PROCESSED. */
    private static void awaitStored(String path) throws Exception {
        String code = path.substring(path.lastIndexOf('/') + 1);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection c = connection();
                    var s = c.prepareStatement("SELECT status FROM pastes WHERE short_code = ?")) {
                s.setString(1, code);
                var rows = s.executeQuery();
                if (rows.next() && rows.getString(1).equals("PROCESSED")) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        fail(code + " was not stored within 60 s\n" + tail());
    }

    /**
     * The breaker open with its next probe 10 s away: the next upload is held (for the breaker's shortest hold,
     * 15 s, since the probe comes sooner).
     */
    private static void openBreaker() throws SQLException {
        execute(
                "UPDATE circuit_breakers SET state = 'OPEN', opened_at = now(), next_probe_at = now() + interval '10 seconds',"
                        + " cooldown_ms = 10000 WHERE name = 's3'");
    }

    private static void closeBreaker() throws SQLException {
        execute("UPDATE circuit_breakers SET state = 'CLOSED', opened_at = NULL, next_probe_at = NULL, cooldown_ms = 0,"
                + " window_calls = 0, window_failures = 0, previous_calls = 0, previous_failures = 0, window_started_at = now()"
                + " WHERE name = 's3'");
    }

    /**
     * One whole sweep after {@code expired} pastes past their expiry were written (in one transaction, right after a
     * sweep ended, so the next sweep sees all of them); checks it deleted them. {@code aSweepJustEnded}: the caller
     * measured one a moment ago, so the window opens at once instead of after the next sweep (one schedule
     * interval saved). On a loaded machine a sweep can start before the window opens, or the next one before it
     * closes: such a sample, which does not hold exactly one sweep from its first statement, is measured again.
     */
    private static Window.Result sweep(int expired, boolean aSweepJustEnded) throws Exception {
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1 || !aSweepJustEnded) {
                open("SweeperFunction").close(1);
            }
            Window window = open("SweeperFunction");
            if (expired > 0) {
                seedExpired(expired);
            }
            Window.Result result = window.close(1);
            String output = runtime.output().substring(window.outputOffset());
            List<String> statements = result.sample().statements();
            boolean whole = sweepStartsAt(statements, 0)
                    && IntStream.range(1, statements.size()).noneMatch(i -> sweepStartsAt(statements, i))
                    && result.sample().functionMillis().size() == 1;
            if (!whole && attempt < MAX_SWEEP_ATTEMPTS) {
                execute("DELETE FROM pastes WHERE short_code LIKE 'sw%'", -1);
                continue;
            }
            assertTrue(whole, "a whole sweep in the window: " + statements + "\n" + output);
            Matcher deleted = Pattern.compile("expiredDeleted\"?[=:]\\s*(\\d+)").matcher(output);
            assertTrue(deleted.find(), "the sweep's report\n" + output);
            assertEquals(expired, Integer.parseInt(deleted.group(1)), "expired pastes the sweep deleted\n" + output);
            return result;
        }
    }

    private static boolean sweepStartsAt(List<String> statements, int index) {
        return index + 1 < statements.size()
                && statements.get(index).equals(SWEEP_FIRST_STATEMENTS.get(0))
                && statements.get(index + 1).startsWith(SWEEP_FIRST_STATEMENTS.get(1));
    }

    private static void seedExpired(int count) throws SQLException {
        try (Connection c = connection();
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO pastes (short_code, content_sha256, size_bytes, status, s3_location, expires_at, created_at)"
                                + " SELECT 'sw' || lpad(i::text, 9, '0'), repeat('0', 64), 1, 'PROCESSED',"
                                + " 's3://" + runtime.bucket + "/pastes/sw' || lpad(i::text, 9, '0'),"
                                + " now() - interval '1 minute', now() - interval '2 minutes' FROM generate_series(1, ?) AS i")) {
            insert.setInt(1, count);
            assertEquals(count, insert.executeUpdate());
        }
    }

    /**
     * Removes the run's objects (directly from LocalStack): the sweep's orphan check looks up the listed keys'
     * rows, one query per page, from a random point of the key space, so with objects its round trips vary.
     */
    private static void emptyBucket() {
        try (var context = ApplicationContext.run()) {
            S3Client s3 = context.getBean(S3Client.class);
            s3.listObjectsV2Paginator(b -> b.bucket(runtime.bucket))
                    .contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(runtime.bucket).key(o.key())));
        }
    }

    // --- the table ---------------------------------------------------------------------------------------------

    private static String table(Map<String, Cost> costs) {
        StringBuilder out =
                new StringBuilder(TABLE_HEADER).append('\n').append("|---|---|---:|---:|---:|---:|---|---:|\n");
        costs.forEach((operation, cost) -> out.append("| ")
                .append(operation)
                .append(" | ")
                .append(cost.function())
                .append(" | ")
                .append(number(cost.perRun(s -> s.database().roundTrips())))
                .append(" | ")
                .append(String.format("%.1f", cost.perRun(s -> s.database().roundTripNanos()) / 1e6))
                .append(" | ")
                .append(String.format("%.1f", cost.perRun(s -> s.database().busyNanos()) / 1e6))
                .append(" | ")
                .append(number(cost.perRun(s -> s.database().connections())))
                .append(" | ")
                .append(awsCalls(cost))
                .append(" | ")
                .append(String.format("%.0f", cost.medianFunctionMillis()))
                .append(" |\n"));
        return out.toString();
    }

    private static String awsCalls(Cost cost) {
        Map<String, Double> calls = cost.awsPerRun();
        return calls.isEmpty()
                ? "none"
                : calls.entrySet().stream()
                        .map(e -> (e.getValue() == 1 ? "" : number(e.getValue()) + " × ") + e.getKey())
                        .collect(Collectors.joining(", "));
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format("%.2f", value);
    }

    /** The counted columns (round trips, connections opened, AWS calls) of each row equal docs/scale.md's. */
    private static void assertMatchesTheDocumentedTable(Map<String, Cost> costs) throws Exception {
        Map<String, List<String>> documented = documentedRows();
        List<String> differences = new ArrayList<>();
        for (String row : table(costs).lines().skip(2).toList()) {
            List<String> measured = cells(row);
            List<String> doc = documented.get(measured.get(0));
            List<String> counted = List.of(measured.get(1), measured.get(2), measured.get(5), measured.get(6));
            if (doc == null) {
                differences.add("not in the table: " + row);
            } else if (!counted.equals(List.of(doc.get(1), doc.get(2), doc.get(5), doc.get(6)))) {
                differences.add("measured " + counted + ", documented "
                        + List.of(doc.get(1), doc.get(2), doc.get(5), doc.get(6)) + ": " + measured.get(0));
            }
        }
        if (!differences.isEmpty()) {
            fail("docs/scale.md, \"Capacity model\": the work per operation differs from the code (function, DB round "
                    + "trips, connections opened, AWS calls); tools/benchmarks/costs.sh prints the table anew:\n  "
                    + String.join("\n  ", differences) + "\n\nmeasured:\n" + table(costs));
        }
    }

    private static Map<String, List<String>> documentedRows() throws Exception {
        List<String> lines = Files.readAllLines(SCALE_DOC, StandardCharsets.UTF_8);
        int header = lines.indexOf(TABLE_HEADER);
        assertTrue(header >= 0, "docs/scale.md has no table headed " + TABLE_HEADER);
        Map<String, List<String>> rows = new HashMap<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> cells = cells(lines.get(i));
            rows.put(cells.get(0), cells);
        }
        return rows;
    }

    private static List<String> cells(String row) {
        String inner = row.trim().substring(1, row.trim().length() - 1);
        return Arrays.stream(inner.split("\\|")).map(String::trim).toList();
    }

    // --- set-up ------------------------------------------------------------------------------------------------

    private static void awaitOutput(Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pattern.matcher(runtime.output()).find()) {
            if (System.nanoTime() > deadline) {
                fail("no line matching " + pattern + "\n" + tail());
            }
            Thread.sleep(100);
        }
    }

    private static String tail() {
        String output = runtime.output();
        return output.substring(Math.max(0, output.length() - 6_000));
    }

    private static void execute(String sql) throws SQLException {
        execute(sql, 1);
    }

    /** Runs an update; {@code expectedRows} -1 takes any count. */
    private static void execute(String sql, int expectedRows) throws SQLException {
        try (Connection c = connection();
                var s = c.createStatement()) {
            int rows = s.executeUpdate(sql);
            if (expectedRows >= 0) {
                assertEquals(expectedRows, rows, sql);
            }
        }
    }

    private static Connection connection() throws SQLException {
        return DriverManager.getConnection(
                databaseUrl,
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
