package dev.pastebin.infra.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infra/admin --stack NAME verify}'s AWS rows against answers in the shape the {@code aws} CLI prints them: a
 * fake {@code aws} first on PATH answers each call from a JSON file (src/test/resources/verify) and logs it, and a
 * local HTTP server stands in for the stack's EdgeUrl ({@code /edge/}) and ApiUrl ({@code /api/}), answering as the
 * functions do. The table and the exit code are what is asserted; each case changes one answer.
 */
class AdminVerifyTest {

    private static final Path ROOT = repositoryRoot();
    private static final Path ANSWERS = ROOT.resolve("infra/src/test/resources/verify");
    private static final String TEST_ALARM = "pastebin-AlarmNotificationTestAlarm-7HqLw2Zp4KcD";
    private static final List<String> CHECKS = List.of(
            "paste round trip",
            "api refuses bypass",
            "security.txt",
            "privatebin /pb/",
            "schema version",
            "alarm actions",
            "alarm notification",
            "dead-letter queues");

    @TempDir
    Path work;

    private Path answers;
    private HttpServer server;
    private String baseUrl;
    /** What the stand-in HTTP API received: method, path and query, X-Origin-Verify (or "-"). */
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private final Map<String, byte[]> pastes = new ConcurrentHashMap<>();
    /** A private instance's stand-in: creates need this Authorization (null: anyone may create). */
    private volatile String requiredAuthorization;
    /** The environment verify runs with, beyond the test's own. */
    private final Map<String, String> environment = new ConcurrentHashMap<>();

    private final Map<String, Integer> reads = new ConcurrentHashMap<>();

    @BeforeEach
    void standIns() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/edge/", this::edge);
        server.createContext("/api/", this::api);
        server.start();
        baseUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/";

        answers = Files.createDirectories(work.resolve("answers"));
        try (Stream<Path> files = Files.list(ANSWERS)) {
            for (Path file : files.toList()) {
                Files.copy(file, answers.resolve(file.getFileName()));
            }
        }
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path aws = Files.copy(ANSWERS.resolve("fake-aws"), bin.resolve("aws"));
        assertTrue(aws.toFile().setExecutable(true));
        stackAnswer("true");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void everyRowPassesOnAHealthyStack() throws Exception {
        Run run = verify();

        assertEquals(0, run.exitCode(), run.output());
        Map<String, String[]> rows = rows(run.stdout());
        assertEquals(CHECKS, List.copyOf(rows.keySet()), run.stdout());
        rows.forEach((check, row) -> assertEquals("PASS", row[0], check + ": " + run.stdout()));
        assertTrue(
                rows.get("paste round trip")[1].matches(
                        "\\w+: 202 ×1 then 200 after [0-9.]+ s, \\d+ bytes equal; deleted"),
                run.stdout());
        assertTrue(rows.get("api refuses bypass")[1].contains("403 EDGE_REQUIRED"), run.stdout());
        assertTrue(rows.get("security.txt")[1].contains("Contact: mailto:abuse@example.com"), run.stdout());
        assertTrue(rows.get("schema version")[1].startsWith(newestMigration() + " "), run.stdout());
        assertTrue(rows.get("alarm actions")[1].startsWith("3 alarms, actions enabled"), run.stdout());
        assertTrue(rows.get("alarm notification")[1].contains("SNS action succeeded"), run.stdout());

        // the API's own address was asked without the edge's header, the edge's for everything else
        assertTrue(
                requests.stream().anyMatch(r -> r.startsWith("GET /api/pastes/") && r.endsWith(" -")),
                requests.toString());
        assertTrue(requests.stream().anyMatch(r -> r.startsWith("DELETE /edge/pastes/")), requests.toString());
        // the test alarm went to ALARM, then back to OK, before its Action history was read
        List<String> calls = calls();
        int alarm =
                indexOfPrefix(calls, "cloudwatch set-alarm-state --alarm-name " + TEST_ALARM + " --state-value ALARM ");
        int ok = indexOfPrefix(calls, "cloudwatch set-alarm-state --alarm-name " + TEST_ALARM + " --state-value OK ");
        int history = indexOfPrefix(
                calls,
                "cloudwatch describe-alarm-history --alarm-name " + TEST_ALARM
                        + " --history-item-type Action --start-date ");
        assertTrue(alarm >= 0 && alarm < ok && ok < history, calls.toString());
        assertTrue(
                calls.stream()
                        .anyMatch(
                                c -> c.startsWith(
                                        "sqs get-queue-attributes --queue-url "
                                                + "https://sqs.eu-west-1.amazonaws.com/123456789012/pastebin-ModerationOutboxDeadLetterQueue-")),
                calls.toString());
    }

    /** A private instance (CreateAccess=api-key): the round trip's create presents PASTEBIN_API_KEY, or says why it failed. */
    @Test
    void onAPrivateInstanceTheRoundTripCreatesWithTheGivenKey() throws Exception {
        requiredAuthorization = "Bearer pb_verify";

        Run withoutKey = verify();
        assertEquals(1, withoutKey.exitCode(), withoutKey.output());
        assertEquals("FAIL", rows(withoutKey.stdout()).get("paste round trip")[0], withoutKey.stdout());
        assertTrue(withoutKey.stdout().contains("PASTEBIN_API_KEY"), withoutKey.stdout());

        environment.put("PASTEBIN_API_KEY", "pb_verify");
        Run withKey = verify();
        assertEquals("PASS", rows(withKey.stdout()).get("paste round trip")[0], withKey.stdout());
    }

    @Test
    void aFailedSnsActionFailsTheNotificationRow() throws Exception {
        use("cloudwatch.describe-alarm-history.failed.json", "cloudwatch.describe-alarm-history.json");

        Run run = verify();

        assertEquals(1, run.exitCode(), run.output());
        Map<String, String[]> rows = rows(run.stdout());
        assertEquals("FAIL", rows.get("alarm notification")[0], run.stdout());
        assertTrue(
                rows.get("alarm notification")[1].contains("Failed to execute action")
                        && rows.get("alarm notification")[1].contains("AccessDeniedException"),
                run.stdout());
        rows.forEach((check, row) -> assertTrue(check.equals("alarm notification") || row[0].equals("PASS"), check));
    }

    @Test
    void noActionWithinTheBoundFailsTheNotificationRow() throws Exception {
        use("cloudwatch.describe-alarm-history.none.json", "cloudwatch.describe-alarm-history.json");

        // a bound of 0: the history is read once
        Run run = verify("--notify-timeout", "0");

        assertEquals(1, run.exitCode(), run.output());
        String[] row = rows(run.stdout()).get("alarm notification");
        assertEquals("FAIL", row[0], run.stdout());
        assertTrue(row[1].startsWith("no action in AlarmNotificationTestAlarm's history within 0 s"), run.stdout());
    }

    @Test
    void aDeadLetterFailsTheQueueRow() throws Exception {
        use(
                "sqs.get-queue-attributes.holding.json",
                "sqs.get-queue-attributes.pastebin-UploadDeadLetterQueue-3kVd9sLq2Xr1.json");

        Run run = verify();

        assertEquals(1, run.exitCode(), run.output());
        String[] row = rows(run.stdout()).get("dead-letter queues");
        assertEquals("FAIL", row[0], run.stdout());
        assertTrue(row[1].startsWith("UploadDeadLetterQueue holds 3 (2 visible, 1 in flight)"), run.stdout());
        assertFalse(row[1].contains("ModerationOutboxDeadLetterQueue holds"), run.stdout());
    }

    @Test
    void anAlarmWithoutActionsFailsTheActionsRow() throws Exception {
        Path alarms = answers.resolve("cloudwatch.describe-alarms.json");
        String described = Files.readString(alarms);
        int api = described.indexOf("pastebin-ApiServerErrorsAlarm");
        Files.writeString(
                alarms,
                described.substring(0, api)
                        + described
                                .substring(api)
                                .replaceFirst("\"ActionsEnabled\": true", "\"ActionsEnabled\": false"));

        Run run = verify();

        assertEquals(1, run.exitCode(), run.output());
        String[] row = rows(run.stdout()).get("alarm actions");
        assertEquals("FAIL", row[0], run.stdout());
        assertEquals("1 of 3: pastebin-ApiServerErrorsAlarm-1Vb8Rt6Ns3Ye (actions disabled)", row[1], run.stdout());
    }

    @Test
    void withoutTheEdgeTheApiUrlIsThePublicAddress() throws Exception {
        stackAnswer("false");
        // the functions have no origin secret then: the API's own address serves
        server.removeContext("/api/");
        server.createContext("/api/", this::edge);

        Run run = verify();

        assertEquals(0, run.exitCode(), run.output());
        Map<String, String[]> rows = rows(run.stdout());
        assertEquals("SKIP", rows.get("api refuses bypass")[0], run.stdout());
        assertEquals("PASS", rows.get("paste round trip")[0], run.stdout());
        assertTrue(requests.stream().noneMatch(r -> r.contains("/edge/")), requests.toString());
    }

    // --- the stand-in HTTP API ----------------------------------------------------------------------------------

    /** As the functions answer through the edge: create, read (202 once, then 200), delete, security.txt, /pb/. */
    private void edge(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath().replaceFirst("^/(edge|api)/", "/");
        String query = exchange.getRequestURI().getRawQuery();
        record(exchange);
        byte[] body = exchange.getRequestBody().readAllBytes();
        Matcher paste = Pattern.compile("/pastes/(\\w+)").matcher(path);
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (method.equals("POST")
                && path.equals("/pastes")
                && requiredAuthorization != null
                && !requiredAuthorization.equals(authorization)) {
            send(exchange, 401, "application/json", "{\"code\":\"API_KEY_REQUIRED\",\"message\":\"m\"}");
        } else if (method.equals("POST") && path.equals("/pastes")) {
            String code = "vErIfY" + (pastes.size() + 10000);
            pastes.put(code, body);
            send(
                    exchange,
                    201,
                    "application/json",
                    "{\"shortCode\":\"" + code + "\",\"status\":\"IN_PROGRESS\",\"deleteToken\":\"token-" + code
                            + "\",\"readOnce\":false}");
        } else if (method.equals("GET") && paste.matches() && pastes.containsKey(paste.group(1))) {
            if (reads.merge(paste.group(1), 1, Integer::sum) == 1) {
                exchange.getResponseHeaders().add("Retry-After", "0");
                send(
                        exchange,
                        202,
                        "application/json",
                        "{\"shortCode\":\"" + paste.group(1) + "\",\"status\":\"IN_PROGRESS\"}");
            } else {
                send(exchange, 200, "text/plain; charset=utf-8", pastes.get(paste.group(1)));
            }
        } else if (method.equals("DELETE")
                && paste.matches()
                && ("token-" + paste.group(1))
                        .equals(exchange.getRequestHeaders().getFirst("Paste-Delete-Token"))) {
            pastes.remove(paste.group(1));
            send(exchange, 204, null, new byte[0]);
        } else if (method.equals("GET") && path.equals("/.well-known/security.txt")) {
            send(
                    exchange,
                    200,
                    "text/plain; charset=utf-8",
                    "Contact: mailto:abuse@example.com\nExpires: 2027-05-20T00:00:00Z\nPreferred-Languages: en\n");
        } else if (method.equals("GET")
                && path.equals("/pb/")
                && "JSONHttpRequest".equals(exchange.getRequestHeaders().getFirst("X-Requested-With"))) {
            if ("jsonld=paste".equals(query)) {
                send(
                        exchange,
                        200,
                        "application/ld+json",
                        Files.readAllBytes(
                                ROOT.resolve("privatebin-function/src/main/resources/privatebin/paste.jsonld")));
            } else {
                send(
                        exchange,
                        200,
                        "application/json",
                        "{\"status\":1,\"message\":\"Document does not exist, has expired or has been deleted.\"}");
            }
        } else {
            send(exchange, 404, "application/json", "{\"code\":\"NOT_FOUND\"}");
        }
    }

    /** The execute-api address with the edge on: 403 EDGE_REQUIRED to anyone without the origin secret. */
    private void api(HttpExchange exchange) throws IOException {
        record(exchange);
        send(
                exchange,
                403,
                "application/json",
                "{\"code\":\"EDGE_REQUIRED\",\"message\":\"This API is reachable only through its public address\"}");
    }

    private void record(HttpExchange exchange) {
        String verify = exchange.getRequestHeaders().getFirst("X-Origin-Verify");
        requests.add(
                exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + (verify == null ? "-" : verify));
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        if (type != null) {
            exchange.getResponseHeaders().add("Content-Type", type);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    // --- the run ----------------------------------------------------------------------------------------------

    private record Run(int exitCode, String stdout, String stderr) {
        String output() {
            return stdout + stderr;
        }
    }

    private Run verify(String... more) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(ROOT.resolve("infra/admin").toString(), "--stack", "pastebin", "verify"));
        command.addAll(List.of(more));
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile());
        pb.environment().put("PATH", work.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("FAKE_AWS_DIR", answers.toString());
        pb.environment().remove("PASTEBIN_LOCAL");
        pb.environment().remove("PASTEBIN_API_KEY");
        pb.environment().putAll(environment);
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "verify finished");
        return new Run(p.exitValue(), out, err.join());
    }

    /** The table's rows by check: {result, detail}. */
    private static Map<String, String[]> rows(String table) {
        Map<String, String[]> rows = new LinkedHashMap<>();
        List<String> lines = table.lines().toList();
        assertTrue(lines.getFirst().matches("check\\s+result\\s+detail"), table);
        for (String line : lines.subList(1, lines.size())) {
            Matcher row =
                    Pattern.compile("(.+?)\\s+(PASS|FAIL|SKIP)(?:\\s+(.*))?").matcher(line);
            assertTrue(row.matches(), line);
            assertNull(
                    rows.put(row.group(1), new String[] {row.group(2), row.group(3) == null ? "" : row.group(3)}),
                    line);
        }
        return rows;
    }

    /** The fake's log: each call's arguments joined by spaces. */
    private List<String> calls() throws IOException {
        return Files.readAllLines(answers.resolve("calls.log")).stream()
                .map(line -> String.join(" ", line.replaceAll("^\\[\"|\"]$", "").split("\", \"")))
                .toList();
    }

    private static int indexOfPrefix(List<String> calls, String prefix) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private void use(String variant, String as) throws IOException {
        Files.copy(ANSWERS.resolve(variant), answers.resolve(as), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private void stackAnswer(String edgeEnabled) throws IOException {
        Files.writeString(
                answers.resolve("cloudformation.describe-stacks.json"),
                Files.readString(ANSWERS.resolve("cloudformation.describe-stacks.json"))
                        .replace("@BASE_URL@", baseUrl)
                        .replace("@SCHEMA_VERSION@", newestMigration())
                        .replace("@EDGE_ENABLED@", edgeEnabled));
    }

    /** The newest migration's version, e.g. 11 for V11__held_release_progress.sql. */
    private static String newestMigration() throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve("core/src/main/resources/db/migration"))) {
            return String.valueOf(files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
                    .max()
                    .orElseThrow());
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path repositoryRoot() {
        // Maven runs tests in infra/; an IDE may run them from the repository root
        for (Path candidate : List.of(Path.of(".."), Path.of(""))) {
            if (Files.isRegularFile(candidate.resolve("infra/admin"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException(
                "infra/admin not found from " + Path.of("").toAbsolutePath());
    }
}
