package dev.pastebin.infra.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.DeliverySchedule;
import dev.pastebin.core.delivery.JitterStrategy;
import dev.pastebin.core.delivery.S3Attempt;
import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The figures and names that the prose of README.md and docs/ repeats, held to their source of truth so that the
 * next contradiction fails the build: the functions (infra/template.yaml's {@code AWS::Serverless::Function}
 * resources, the modules' application.yml), the route throttle (the template's parameters), the timeouts (the
 * application.yml files, core's configuration metadata, the template) and the retry schedule (what
 * {@link DeliverySchedule} computes from {@link DeliveryProperties}' defaults and the template's overrides).
 *
 * <p>Each check looks for the phrasings the docs use today, and fails when none of them is found any more, so a
 * rewording cannot silently turn a check off: reword the doc, then the pattern here.
 */
class DocumentedProseTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String NUMBER = "(\\d[\\d,]*(?:\\.\\d+)?)";

    private static final CloudFormationTemplate TEMPLATE = CloudFormationTemplate.load(Path.of("template.yaml"));

    // --- (a) the functions (their counts and lists: DocumentedListsTest) -------------------------------------

    /** design.md's module table and operating.md's connections table name exactly the template's functions. */
    @Test
    void theFunctionTablesNameTheTemplatesFunctions() throws IOException {
        Set<String> functions = templateFunctions();
        Set<String> modules = new TreeSet<>();
        for (List<String> row :
                MarkdownDocument.read("docs/design.md").section("Layout").table("module", "what it holds")) {
            String module = MarkdownDocument.codeSpans(row.getFirst()).getFirst();
            if (module.endsWith("-function/")) {
                modules.add(module.substring(0, module.length() - "-function/".length()));
            }
        }
        assertEquals(
                functions, modules, "docs/design.md, \"Layout\": the function modules against infra/template.yaml");

        Set<String> connections = new TreeSet<>();
        for (List<String> row : MarkdownDocument.read("docs/operating.md")
                .section("Database connections")
                .table("function", "concurrency (parameter)")) {
            if (!row.getFirst().startsWith("**")) {
                connections.add(row.getFirst());
            }
        }
        Set<String> databaseFunctions = new TreeSet<>(functions);
        // the edge's and the database protection's custom-resource functions and the moderation outbox function hold
        // no connection
        databaseFunctions.remove("edge-acl");
        databaseFunctions.remove("database-protection");
        databaseFunctions.remove("moderation-outbox");
        assertEquals(
                databaseFunctions,
                connections,
                "docs/operating.md, \"Database connections\": the functions against infra/template.yaml");
    }

    /** The figures of operating.md's connections table are the template's parameter defaults. */
    @Test
    void theConnectionsTableStatesTheTemplatesDefaults() throws IOException {
        Pattern parameterAndValue = Pattern.compile("`([A-Z][A-Za-z]+)` (\\d+)");
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        for (List<String> row : MarkdownDocument.read("docs/operating.md")
                .section("Database connections")
                .table("function", "concurrency (parameter)")) {
            Matcher m = parameterAndValue.matcher(String.join(" | ", row));
            while (m.find()) {
                int template = TEMPLATE.intValue(Map.of("Ref", m.group(1)));
                checked++;
                if (template != Integer.parseInt(m.group(2))) {
                    wrong.add("docs/operating.md, \"Database connections\", row " + row.getFirst() + " says "
                            + m.group(1) + " " + m.group(2) + ", infra/template.yaml's default is " + template);
                }
            }
        }
        assertTrue(checked >= 6, "the table names its parameters with their values: " + checked);
        assertEquals(List.of(), wrong);
    }

    /** Every list of functions said to run with SnapStart is the template's list. */
    @Test
    void everyListOfTheSnapStartFunctionsIsTheTemplates() throws IOException {
        Set<String> snapStart = new TreeSet<>();
        for (String function : TEMPLATE.resourcesOfType("AWS::Serverless::Function")) {
            if (TEMPLATE.functionProperty(function, "SnapStart") != null) {
                snapStart.add(shortName(function));
            }
        }
        assertTrue(snapStart.contains("create") && !snapStart.contains("sweeper"), "read the template: " + snapStart);
        Pattern list = functionList();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Doc doc : Doc.all()) {
            for (Found snap : doc.find(Pattern.compile("SnapStart"))) {
                String sentence = doc.sentenceAround(snap);
                Matcher m = list.matcher(sentence);
                while (m.find()) {
                    Set<String> named = namesIn(m.group());
                    checked++;
                    if (!named.equals(snapStart)) {
                        wrong.add(snap.where() + " names " + named + " in \"" + sentence.strip()
                                + "\"; infra/template.yaml gives SnapStart to " + snapStart);
                    }
                }
            }
        }
        assertTrue(checked >= 3, "the docs list the SnapStart functions: " + checked);
        assertEquals(List.of(), new ArrayList<>(new LinkedHashSet<>(wrong)));
    }

    /** design.md's list of the metrics' {@code Service} values is what the functions' application.yml set. */
    @Test
    void theServiceDimensionListsEveryFunction() throws IOException {
        Set<String> services = new TreeSet<>();
        for (String module : templateModules()) {
            if (module.equals("edge-acl-function") || module.equals("database-protection-function")) {
                continue; // a custom resource's function, run at deploys only: no Micronaut, no metrics
            }
            Map<String, Object> yml = applicationYml(module);
            services.add(String.valueOf(path(yml, "pastebin", "metrics", "service")));
        }
        Set<String> measured = new TreeSet<>(templateFunctions());
        measured.remove("edge-acl");
        measured.remove("database-protection");
        assertEquals(measured, services, "pastebin.metrics.service of each function module");
        List<Found> stated = Doc.named("docs/design.md").find(Pattern.compile("`Service` \\(([a-z, -]+)\\)"));
        assertEquals(1, stated.size(), "docs/design.md states the Service dimension's values once: " + stated);
        assertEquals(
                services,
                namesIn(stated.getFirst().group(1)),
                stated.getFirst() + " against the application.yml files");
    }

    // --- (b) the route throttle -------------------------------------------------------------------------------

    @Test
    void theRouteThrottleIsTheTemplatesDefault() throws IOException {
        long rate = TEMPLATE.intValue(Map.of("Ref", "ApiThrottlingRateLimit"));
        long burst = TEMPLATE.intValue(Map.of("Ref", "ApiThrottlingBurstLimit"));
        String source = "infra/template.yaml: ApiThrottlingRateLimit " + rate + ", ApiThrottlingBurstLimit " + burst;
        Claims claims = new Claims();
        // "200 req/s, burst 400 per route", "200 a second per route, burst 400"
        claims.expect(
                NUMBER + " (?:req/s|requests? a second|a second)(?: per route)?, burst " + NUMBER,
                List.of(rate, burst),
                source);
        claims.expect(
                "`ApiThrottlingRateLimit` (?:now )?defaults to " + NUMBER + " \\(burst " + NUMBER + "\\)",
                List.of(rate, burst),
                source);
        claims.expect("then the route throttle \\(" + NUMBER + "\\)", List.of(rate), source);
        claims.assertAll("the route throttle");
    }

    // --- (c) timeouts -----------------------------------------------------------------------------------------

    @Test
    void theS3ClientsLimitsAreTheConfiguredOnes() throws IOException {
        long attempts = Long.parseLong(metadataDefault("core", "pastebin.s3.max-attempts"));
        long attemptTimeout = seconds(s3Setting("read-function", "attempt-timeout"));
        long callTimeout = seconds(s3Setting("read-function", "call-timeout"));
        assertEquals(attemptTimeout, seconds(s3Setting("remove-function", "attempt-timeout")), "read and remove alike");
        long sweeperAttempt = seconds(s3Setting("sweeper-function", "attempt-timeout"));
        long sweeperCall = seconds(s3Setting("sweeper-function", "call-timeout"));
        String source = "S3Properties' defaults and the functions' application.yml: read and remove " + attempts
                + " attempts of " + attemptTimeout + " s, " + callTimeout + " s a call; the sweeper " + sweeperAttempt
                + " s / " + sweeperCall + " s";
        Claims claims = new Claims();
        // "pinned to 2 attempts of at most 3 s, 5 s in all", "at most 2 attempts of 3 s within 5 s a call"
        claims.expect(
                "(\\d+) attempts of (?:at most )?(\\d+) s,? (?:within )?(\\d+) s",
                List.of(attempts, attemptTimeout, callTimeout),
                source);
        claims.expect(
                "`PASTEBIN_S3_MAX_ATTEMPTS` / `_ATTEMPT_TIMEOUT` / `_CALL_TIMEOUT` \\| `(\\d+)` / `(\\d+)s` / `(\\d+)s`"
                        + " \\(sweeper: `(\\d+)s` / `(\\d+)s`\\)",
                List.of(attempts, attemptTimeout, callTimeout, sweeperAttempt, sweeperCall),
                source);
        claims.expect("the sweeper allows (\\d+) s a call", List.of(sweeperCall), source);
        claims.assertAll("the S3 clients' attempts and timeouts");
    }

    @Test
    void theDatabaseTimeoutsAreTheConfiguredOnes() throws IOException {
        long worker = millisToSeconds(
                path(applicationYml("upload-function"), "datasources", "default", "connection-timeout"));
        long http =
                millisToSeconds(path(applicationYml("read-function"), "datasources", "default", "connection-timeout"));
        for (String module : List.of("create-function", "remove-function")) {
            assertEquals(
                    http,
                    millisToSeconds(path(applicationYml(module), "datasources", "default", "connection-timeout")),
                    module + "'s connection-timeout, like read's");
        }
        String initSql = String.valueOf(
                path(applicationYml("upload-function"), "datasources", "default", "connection-init-sql"));
        long lock = firstNumber(initSql, "lock_timeout = '(\\d+)s'");
        long statement = firstNumber(initSql, "statement_timeout = '(\\d+)s'");
        long httpSocket = urlSeconds(TEMPLATE.globalsFunction(), "socketTimeout");
        long workerSocket = urlSeconds(TEMPLATE.properties("UploadPasteFunction"), "socketTimeout");
        long connect = urlSeconds(TEMPLATE.globalsFunction(), "connectTimeout");
        String source = "the application.yml files and infra/template.yaml: connection timeout " + worker
                + " s (upload), " + http + " s (create, read, remove); lock_timeout " + lock + " s, statement_timeout "
                + statement + " s (upload); connectTimeout " + connect + " s; socketTimeout " + httpSocket + " s, "
                + workerSocket + " s (upload)";
        Claims claims = new Claims();
        claims.expect(
                "[Cc]onnection timeouts of (\\d+) s \\(worker\\) and (\\d+) s \\(HTTP\\)",
                List.of(worker, http),
                source);
        claims.expect("\\((\\d+) s in the worker, (\\d+) s in the HTTP functions\\)", List.of(worker, http), source);
        claims.expect(
                "\\((\\d+) s pool wait \\+ (\\d+) s statement or socket timeout\\)",
                List.of(worker, Math.max(statement, workerSocket)),
                source);
        claims.expect(
                "pool wait plus the statement or socket timeout \\((\\d+) \\+ (\\d+) s\\)",
                List.of(worker, Math.max(statement, workerSocket)),
                source);
        claims.expect("lock_timeout = '?(\\d+)s'?", List.of(lock), source);
        claims.expect("statement_timeout = '?(\\d+)s'?", List.of(statement), source);
        claims.expect("(\\d+) s `statement_timeout`", List.of(statement), source);
        claims.expect("connectTimeout=(\\d+)", List.of(connect), source);
        claims.expect("\\((\\d+) s; (\\d+) s for the upload function", List.of(httpSocket, workerSocket), source);
        claims.expect("\\((\\d+) s for the worker\\)", List.of(workerSocket), source);
        claims.assertAll("the database timeouts");
    }

    @Test
    void theQueueAndFunctionTimeoutsAreTheTemplates() throws IOException {
        long visibility = TEMPLATE.intValue(TEMPLATE.properties("UploadQueue").get("VisibilityTimeout"));
        long upload = TEMPLATE.intValue(TEMPLATE.functionProperty("UploadPasteFunction", "Timeout"));
        long sweeper = TEMPLATE.intValue(TEMPLATE.functionProperty("SweeperFunction", "Timeout"));
        long http = TEMPLATE.intValue(TEMPLATE.functionProperty("CreatePasteFunction", "Timeout"));
        for (String function : List.of("ReadPasteFunction", "RemovePasteFunction")) {
            assertEquals(http, TEMPLATE.intValue(TEMPLATE.functionProperty(function, "Timeout")), function);
        }
        long margin = seconds(metadataDefault("upload-function", "pastebin.upload.remaining-time-margin"));
        long stopMargin = seconds(metadataDefault("sweeper-function", "pastebin.sweeper.stop-margin"));
        String source = "infra/template.yaml: the upload queue's VisibilityTimeout " + visibility + " s; Timeout "
                + http + " s (create, read, remove), " + upload + " s (upload), " + sweeper + " s (sweeper); the "
                + "upload function's remaining-time margin " + margin + " s, the sweeper's stop margin " + stopMargin
                + " s";
        Claims claims = new Claims();
        claims.expect("(\\d+) s visibility timeout", List.of(visibility), source);
        claims.expect(
                "visibility timeout (\\d+) s = (\\d+) × the worker's timeout",
                List.of(visibility, visibility / upload),
                source);
        claims.expect(
                "`VisibilityTimeout` \\((\\d+) s, (\\d+) × the (\\d+) s function timeout",
                List.of(visibility, visibility / upload, upload),
                source);
        claims.expect("inside the (\\d+) s function timeout", List.of(http), source);
        claims.expect("sends the job within its (\\d+) s timeout", List.of(http), source);
        claims.expect("less than (\\d+) s of its (\\d+) s left", List.of(margin, upload), source);
        claims.expect("\\((\\d+) s\\) left of its (\\d+) s", List.of(margin, upload), source);
        claims.expect("\\(of the function's (\\d+) s\\)", List.of(upload), source);
        claims.expect("its (\\d+) s timeout minus the (\\d+) s stop margin", List.of(sweeper, stopMargin), source);
        claims.expect("The sweeper has (\\d+) s", List.of(sweeper), source);
        claims.assertAll("the queue's and the functions' timeouts");
    }

    // --- (d) the retry schedule -------------------------------------------------------------------------------

    /** design.md's table of the fast schedule: one row per attempt, each delay and total as BackoffPolicy has it. */
    @Test
    void theScheduleTableIsWhatBackoffPolicyComputes() throws IOException {
        DeliverySchedule schedule = defaultSchedule();
        List<List<String>> rows = MarkdownDocument.read("docs/design.md")
                .section("Retry schedule")
                .table("attempt", "starts", "total wait so far");
        assertEquals(
                defaultDelivery().maxAttempts(),
                rows.size(),
                "docs/design.md, \"Retry schedule\": one row per fast attempt");
        double total = 0;
        for (int attempt = 1; attempt <= rows.size(); attempt++) {
            List<String> row = rows.get(attempt - 1);
            if (attempt > 1) {
                double delay = schedule.nominalBackoffSeconds(new S3Attempt(attempt - 1), ErrorClass.SERVER_ERROR);
                total += delay;
                assertEquals(
                        seconds(delay),
                        firstNumber(row.get(1), "(\\d+) s"),
                        "docs/design.md, \"Retry schedule\", attempt " + attempt
                                + ": the delay BackoffPolicy computes");
            }
            assertEquals(
                    seconds(total),
                    firstNumber(row.get(2), "(\\d+) s"),
                    "docs/design.md, \"Retry schedule\", attempt " + attempt + ": the total wait");
        }
    }

    /** Every schedule the prose states (1, 2, 4, 8, 16 s; about 31 s; ±200 ms) is BackoffPolicy's. */
    @Test
    void theRetryGapsInTheProseAreWhatBackoffPolicyComputes() throws IOException {
        DeliveryProperties retry = defaultDelivery();
        DeliverySchedule schedule = defaultSchedule();
        List<Long> fast = nominal(schedule, retry, ErrorClass.SERVER_ERROR);
        List<Long> throttled = nominal(schedule, retry, ErrorClass.THROTTLING);
        long fastTotal = fast.stream().mapToLong(Long::longValue).sum();
        long throttledTotal = throttled.stream().mapToLong(Long::longValue).sum();
        String source = "DeliverySchedule with DeliveryProperties' defaults and the template's UploadMaxAttempts: "
                + retry.maxAttempts() + " fast attempts, delays " + fast + " s (" + fastTotal + " s in all), throttled "
                + throttled + " s (" + throttledTotal + " s), ±"
                + retry.plusMinusJitter().toMillis() + " ms";

        // lists of whole seconds that start by doubling: "1, 2, 4, 8, 16 s", "1, 2, 4, 8 and 16 s", "4, 8, 16, 32, 64
        // s"
        Pattern doubling = Pattern.compile("\\b(\\d+)((?:, \\d+)+)(?:,? and (\\d+))? s\\b");
        List<String> wrong = new ArrayList<>();
        int lists = 0;
        for (Doc doc : Doc.all()) {
            for (Found found : doc.find(doubling)) {
                List<Long> values = longs(found.text().replaceAll("\\s*s$", ""));
                if (values.size() < 3 || values.get(1) != 2 * values.getFirst()) {
                    continue; // not a schedule: one starts by doubling
                }
                lists++;
                if (!values.equals(fast) && !values.equals(throttled)) {
                    wrong.add(found + ": " + source);
                }
            }
        }
        assertTrue(lists >= 3, "the docs state the schedule as a list: " + lists);

        Claims claims = new Claims();
        claims.expect("(\\d+) fast (?:S3 )?attempts", List.of((long) retry.maxAttempts()), source);
        claims.expect("about (\\d+) s of fast retries", List.of(fastTotal), source);
        claims.expect("fast schedule within about (\\d+) s", List.of(fastTotal), source);
        claims.expect("(\\d+) attempts \\(about (\\d+) s\\)", List.of((long) retry.maxAttempts(), fastTotal), source);
        claims.expect(
                "exactly (\\d+) attempts and about (\\d+) s", List.of((long) retry.maxAttempts(), fastTotal), source);
        claims.expect("~(\\d+) s retry window", List.of(fastTotal), source);
        claims.expect("retry window is ~(\\d+) s", List.of(fastTotal), source);
        claims.expect("longer than its ~(\\d+) s", List.of(fastTotal), source);
        claims.expect("the (\\d+) s retry schedule", List.of(fastTotal), source);
        claims.expect("the documented (\\d+) s", List.of(fastTotal), source);
        claims.expect("\\d+, \\d+, \\d+, \\d+, \\d+ s, about (\\d+) s in all", List.of(throttledTotal), source);
        claims.expect("a base of \\*\\*(\\d+) s\\*\\*", List.of(throttled.getFirst()), source);
        claims.expect("±(\\d+) ms", List.of(retry.plusMinusJitter().toMillis()), source);
        claims.expect(
                "\\(2u − 1\\) × (\\d+) ms", List.of(retry.plusMinusJitter().toMillis()), source);
        claims.expect(
                "`min-delay` (\\d+) s, `max-delay` (\\d+) s",
                List.of(seconds(retry.minDelay()), seconds(retry.maxDelay())),
                source);
        claims.assertAll("the retry schedule", wrong);
    }

    /** The measured retry gaps the docs repeat are benchmarks.md's run of record (decisions.md keeps older passes). */
    @Test
    void theMeasuredRetryGapsAreTheRunOfRecords() throws IOException {
        List<String> recorded = null;
        for (List<String> row : MarkdownDocument.read("docs/benchmarks.md")
                .section("Retry gaps (5 jobs failing every S3 attempt, per batching window)")
                .table("batching window")) {
            if (row.getFirst().equals("0 s")) {
                recorded = row.subList(1, 6).stream()
                        .map(cell -> cell.substring(0, cell.indexOf(' ')))
                        .toList();
            }
        }
        assertTrue(recorded != null, "benchmarks.md's retry-gap table has its row for no batching window");
        Pattern five = Pattern.compile(
                "(\\d+\\.\\d\\d), (\\d+\\.\\d\\d), (\\d+\\.\\d\\d), (\\d+\\.\\d\\d),? (?:and )?(\\d+\\.\\d\\d) s");
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Doc doc : Doc.all()) {
            if (doc.name().equals("docs/decisions.md")) {
                continue; // the record of earlier passes
            }
            for (Found found : doc.find(five)) {
                checked++;
                List<String> stated =
                        List.of(found.group(1), found.group(2), found.group(3), found.group(4), found.group(5));
                if (!stated.equals(recorded)) {
                    wrong.add(found + ": benchmarks.md's run of record measured " + recorded);
                }
            }
        }
        assertTrue(checked >= 2, "the docs repeat the measured gaps: " + checked);
        assertEquals(List.of(), wrong);
    }

    // --- sources ----------------------------------------------------------------------------------------------

    /** The short names (create, read, ...) of the template's functions, from their CodeUri modules. */
    private static Set<String> templateFunctions() {
        return TEMPLATE.resourcesOfType("AWS::Serverless::Function").stream()
                .map(DocumentedProseTest::shortName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static List<String> templateModules() {
        return TEMPLATE.resourcesOfType("AWS::Serverless::Function").stream()
                .map(DocumentedProseTest::module)
                .toList();
    }

    private static String module(String function) {
        return Path.of(String.valueOf(TEMPLATE.functionProperty(function, "CodeUri")))
                .getFileName()
                .toString();
    }

    private static String shortName(String function) {
        return module(function).replaceFirst("-function$", "");
    }

    private static Pattern functionList() {
        String name = "(?:create|read|remove|upload|(?:the )?sweeper)";
        return Pattern.compile("(?i)\\b" + name + "(?:(?:, |,? and |,? or )" + name + ")+\\b");
    }

    private static Set<String> namesIn(String list) {
        return Arrays.stream(list.toLowerCase(Locale.ROOT).replace("the ", "").split(",\\s*|\\s+and\\s+|\\s+or\\s+"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> applicationYml(String module) throws IOException {
        try (Reader reader =
                Files.newBufferedReader(ROOT.resolve(module).resolve("src/main/resources/application.yml"))) {
            return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        }
    }

    private static Object path(Map<String, Object> yml, String... keys) {
        Object node = yml;
        for (String key : keys) {
            node = node instanceof Map<?, ?> m ? m.get(key) : null;
        }
        return node;
    }

    /** A function's {@code pastebin.s3.*} setting: its application.yml's, else S3Properties' default. */
    private static String s3Setting(String module, String key) throws IOException {
        Object own = path(applicationYml(module), "pastebin", "s3", key);
        return own != null ? String.valueOf(own) : metadataDefault("core", "pastebin.s3." + key);
    }

    /** The default a {@code @ConfigurationProperties} record declares, from the module's configuration metadata. */
    private static String metadataDefault(String module, String property) throws IOException {
        Path metadata = ROOT.resolve(module).resolve("target/classes/META-INF/spring-configuration-metadata.json");
        for (JsonNode node : Json.MAPPER.readTree(metadata.toFile()).path("properties")) {
            if (node.path("name").asText().equals(property) && node.has("defaultValue")) {
                return node.path("defaultValue").asText();
            }
        }
        throw new AssertionError(property + " has no default in " + metadata);
    }

    /** DeliveryProperties as deployed: the record's defaults, with the template's UploadMaxAttempts. */
    private static DeliveryProperties defaultDelivery() throws IOException {
        Function<String, String> d = name -> {
            try {
                return metadataDefault("core", "pastebin.delivery." + name);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
        return new DeliveryProperties(
                TEMPLATE.intValue(Map.of("Ref", "UploadMaxAttempts")),
                duration(d.apply("base-delay")),
                Double.parseDouble(d.apply("multiplier")),
                duration(d.apply("max-delay")),
                duration(d.apply("min-delay")),
                JitterStrategy.valueOf(d.apply("jitter")),
                duration(d.apply("plus-minus-jitter")),
                null,
                TEMPLATE.intValue(Map.of("Ref", "UploadGiveUpAfterAttempts")),
                duration(d.apply("hold-at-least")),
                duration(d.apply("hold-jitter")),
                duration(d.apply("max-hold")),
                duration(d.apply("hold-limit")),
                Boolean.parseBoolean(d.apply("release-enabled")),
                Integer.parseInt(d.apply("release-rate")),
                Integer.parseInt(d.apply("release-parallelism")),
                Integer.parseInt(d.apply("held-delivery-rate")),
                duration(d.apply("max-backlog-hold")));
    }

    private static DeliverySchedule defaultSchedule() throws IOException {
        return new DeliverySchedule(defaultDelivery(), new FixedRandom());
    }

    /** The nominal delays after attempts 1 .. maxAttempts-1, in whole seconds. */
    private static List<Long> nominal(DeliverySchedule schedule, DeliveryProperties delivery, ErrorClass errorClass) {
        List<Long> delays = new ArrayList<>();
        for (int attempt = 1; attempt < delivery.maxAttempts(); attempt++) {
            delays.add(seconds(schedule.nominalBackoffSeconds(new S3Attempt(attempt), errorClass)));
        }
        return delays;
    }

    private static long urlSeconds(Map<String, Object> properties, String parameter) {
        Object environment = properties.get("Environment");
        Object url = path(
                CloudFormationTemplate.mapping(environment, "Environment"), "Variables", "DATASOURCES_DEFAULT_URL");
        return firstNumber(String.valueOf(url), parameter + "=(\\d+)");
    }

    private static Duration duration(String text) {
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h|d)").matcher(text);
        assertTrue(m.matches(), "a duration: " + text);
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static long seconds(String durationText) {
        return duration(durationText).toSeconds();
    }

    private static long seconds(Duration duration) {
        return duration.toSeconds();
    }

    private static long seconds(double seconds) {
        assertEquals(Math.rint(seconds), seconds, "a whole number of seconds: " + seconds);
        return (long) seconds;
    }

    private static long millisToSeconds(Object millis) {
        return Long.parseLong(String.valueOf(millis)) / 1000;
    }

    private static long firstNumber(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no " + regex + " in " + text);
        return Long.parseLong(m.group(1));
    }

    private static List<Long> longs(String text) {
        return Pattern.compile("\\d+")
                .matcher(text)
                .results()
                .map(r -> Long.parseLong(r.group()))
                .toList();
    }

    /** nominalDelaySeconds draws nothing; a constant in case it ever does. */
    private static final class FixedRandom implements RandomGenerator {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public double nextDouble() {
            return 0.5;
        }
    }

    // --- the docs ---------------------------------------------------------------------------------------------

    /**
     * The claims a test expects, each a pattern whose groups must equal the source's values. A pattern that
     * matches nowhere is a failure too: the doc was reworded and the check would have stopped checking.
     */
    private static final class Claims {
        private final Map<String, List<Long>> expected = new LinkedHashMap<>();
        private final Map<String, String> sources = new LinkedHashMap<>();

        void expect(String regex, List<Long> values, String source) {
            expected.put(regex, values);
            sources.put(regex, source);
        }

        void assertAll(String what) throws IOException {
            assertAll(what, List.of());
        }

        /** With the failures the caller found on its own. */
        void assertAll(String what, List<String> alsoWrong) throws IOException {
            List<String> wrong = new ArrayList<>(alsoWrong);
            Map<String, Integer> matches = new TreeMap<>();
            for (Doc doc : Doc.all()) {
                for (var claim : expected.entrySet()) {
                    for (Found found : doc.find(Pattern.compile(claim.getKey()))) {
                        matches.merge(claim.getKey(), 1, Integer::sum);
                        List<Long> stated = new ArrayList<>();
                        for (int g = 1; g <= found.groupCount(); g++) {
                            stated.add(Long.parseLong(
                                    found.group(g).replace(",", "").replaceFirst("\\.0+$", "")));
                        }
                        if (!stated.equals(claim.getValue())) {
                            wrong.add(found + " states " + stated + ", but " + sources.get(claim.getKey()));
                        }
                    }
                }
            }
            List<String> unmatched = expected.keySet().stream()
                    .filter(regex -> !matches.containsKey(regex))
                    .toList();
            assertEquals(
                    List.of(),
                    unmatched,
                    "no doc states " + what + " in these words any more: reword the check with the doc");
            if (!wrong.isEmpty()) {
                fail(what + ":\n" + String.join("\n", wrong));
            }
        }
    }

    record Found(Doc doc, int offset, List<String> groups) {
        String group(int g) {
            return groups.get(g);
        }

        int groupCount() {
            return groups.size() - 1;
        }

        String text() {
            return groups.getFirst();
        }

        String where() {
            return doc.name() + " line " + doc.lineOf(offset);
        }

        @Override
        public String toString() {
            return where() + " says \"" + text() + "\"";
        }
    }

    /**
     * A Markdown file searched as one line of text, since a phrase may wrap: each line break with the indentation
     * after it becomes one space, a blank line two (a sentence never runs across it). Matches are reported by
     * the line they start on.
     */
    record Doc(String name, String text, String joined, int[] offsets) {

        static List<Doc> all() throws IOException {
            List<Doc> docs = new ArrayList<>();
            docs.add(named("README.md"));
            try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                    docs.add(named("docs/" + file.getFileName()));
                }
            }
            docs.add(named("tools/README.md"));
            return docs;
        }

        static Doc named(String name) throws IOException {
            return of(name, Files.readString(ROOT.resolve(name)));
        }

        static Doc of(String name, String text) {
            StringBuilder joined = new StringBuilder(text.length());
            List<Integer> offsets = new ArrayList<>(text.length());
            int i = 0;
            while (i < text.length()) {
                if (text.charAt(i) != '\n') {
                    joined.append(text.charAt(i));
                    offsets.add(i);
                    i++;
                    continue;
                }
                int breaks = 0;
                int start = i;
                while (i < text.length() && (text.charAt(i) == '\n' || text.charAt(i) == ' ')) {
                    breaks += text.charAt(i) == '\n' ? 1 : 0;
                    i++;
                }
                joined.append(breaks > 1 ? "  " : " ");
                offsets.add(start);
                if (breaks > 1) {
                    offsets.add(start);
                }
            }
            return new Doc(
                    name,
                    text,
                    joined.toString(),
                    offsets.stream().mapToInt(Integer::intValue).toArray());
        }

        List<Found> find(Pattern pattern) {
            List<Found> found = new ArrayList<>();
            Matcher m = pattern.matcher(joined);
            while (m.find()) {
                List<String> groups = new ArrayList<>();
                for (int g = 0; g <= m.groupCount(); g++) {
                    groups.add(m.group(g));
                }
                found.add(new Found(this, m.start(), groups));
            }
            return found;
        }

        /** The sentence around a match: from the previous full stop, table cell or blank line to the next. */
        String sentenceAround(Found found) {
            int at = found.offset();
            int start = Math.max(
                    Math.max(joined.lastIndexOf(". ", at), joined.lastIndexOf('|', at)), joined.lastIndexOf("  ", at));
            int end = at;
            while (end < joined.length()
                    && !(joined.startsWith(". ", end) || joined.charAt(end) == '|' || joined.startsWith("  ", end))) {
                end++;
            }
            return joined.substring(start + 1, end);
        }

        /** The line of the original text a position of the joined text comes from. */
        int lineOf(int joinedOffset) {
            int original = joinedOffset < offsets.length ? offsets[joinedOffset] : text.length();
            int line = 1;
            for (int i = 0; i < original; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return line;
        }
    }
}
