package dev.pastebin.local.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.TestSupport;
import dev.pastebin.local.browser.Chromium;
import dev.pastebin.local.cli.LocalRuntime;
import dev.pastebin.local.cli.RuntimeSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The metrics dashboard in a real headless Chromium against a running local runtime: a fixture function
 * prints known Embedded Metric Format lines, and the figures the page shows must be the ones those lines
 * imply, read by a real headless Chromium ({@link Chromium}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path SCREENSHOT = TARGET.resolve("dashboard.png");
    private static final List<String> PANELS = List.of("transient-rate", "retries-per-success", "success-by-attempt",
            "time-to-success", "breaker", "api-requests", "api-latency", "sweeper");

    private static String chromium;
    private static LocalRuntime runtime;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        chromium = Chromium.find();
        Path template = Path.of("target/test-classes/fixture/metrics-template.yaml").toAbsolutePath();
        var settings = new RuntimeSettings("127.0.0.1", 0, template, null, Map.of(), Map.of(), TestSupport.ricLib(),
                Path.of("target/local-runtime-work-metrics"), 1, true, null, "us-east-1", "000000000000", null);
        runtime = LocalRuntime.create(settings, System.err);
        port = runtime.start();
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    @Order(1)
    void withoutMetricLinesEveryPanelSaysItHasNoData() throws Exception {
        String dom = Chromium.dumpDom(chromium, dashboardUrl());

        Map<String, String> states = panelStates(dom);
        for (String panel : PANELS) {
            assertEquals("empty", states.get(panel), panel + " in " + states);
        }
        // The runtime's own AWS/Lambda figures (the browser's favicon request is an invocation) are the only rows.
        Set<String> listed = new TreeSet<>();
        Matcher row = Pattern.compile("<tr data-metric=\"([^\"]+)\"").matcher(dom);
        while (row.find()) {
            listed.add(row.group(1));
        }
        assertTrue(Set.of("Invocations", "Errors").containsAll(listed), "only the runtime's own metrics: " + listed);
        assertTrue(dom.contains("No data in the last 30 minutes."), dom);
        assertFalse(dom.contains("<svg"), "no chart without data: " + dom);
    }

    @Test
    @Order(2)
    void theChartsRenderAndTheirFiguresAreWhatTheMetricLinesImply() throws Exception {
        // Four invocations, as four uploads and four API requests would emit (one directive per line or several),
        // their lines stamped 90 s apart so that the charts have four points.
        int[] transientBefore = {0, 1, 1, 3};
        int[] timeToSuccess = {40, 180, 220, 900};
        String[] statusCodes = {"201", "200", "404", "503"};
        double[][] latencies = {{12, 30}, {8}, {15, 45, 5}, {100}};
        String[][] transitions = {{}, {"OPEN"}, {"HALF_OPEN", "CLOSED"}, {"OPEN"}};
        long now = System.currentTimeMillis();
        for (int i = 0; i < 4; i++) {
            long at = now - (3 - i) * 90_000L;
            List<String> lines = new ArrayList<>();
            lines.add("INFO a log line that is not a metric");
            lines.add("{\"level\":\"INFO\",\"message\":\"JSON, but no _aws\"}");
            for (int t = 0; t < transientBefore[i]; t++) {
                lines.add(uploadAttempt(at, "transient", "SlowDown"));
            }
            if (i == 3) {
                // another paste, its fast attempts used up, retrying slowly: a transient failure too
                lines.add(uploadAttempt(at, "slow", "SERVER_ERROR"));
            }
            lines.add(uploadAttempt(at, "success", "none"));
            lines.add(emf(at, List.of(directive("Pastebin", List.of(List.of("Service")), Map.of("SuccessAttempt", "None",
                            "RetriesPerSuccess", "Count", "TimeToSuccess", "Milliseconds"))),
                    Map.of("Service", "upload", "SuccessAttempt", transientBefore[i] + 1,
                            "RetriesPerSuccess", transientBefore[i], "TimeToSuccess", timeToSuccess[i])));
            for (String to : transitions[i]) {
                lines.add(emf(at, List.of(directive("Pastebin", List.of(List.of("Service", "To")),
                        Map.of("BreakerTransitions", "Count"))), Map.of("Service", "upload", "To", to,
                        "BreakerTransitions", 1)));
            }
            if (i == 3) {
                lines.add(emf(at, List.of(directive("Pastebin", List.of(List.of("Service")),
                        Map.of("BreakerOpenMinutes", "None"))), Map.of("Service", "upload", "BreakerOpenMinutes", 1.5)));
            }
            lines.add(apiRequest(at, i % 2 == 0 ? "create" : "read", statusCodes[i], latencies[i]));
            lines.add(emf(at, List.of(directive("Pastebin", List.of(List.of("Service")), Map.of("Deleted", "Count",
                            "ObjectsRemoved", "Count", "DeadLettersKept", "Count"))),
                    Map.of("Service", "sweeper", "Deleted", i + 1, "ObjectsRemoved", 2, "DeadLettersKept", 0)));
            // Last: once every invocation's Widgets are in, so are all of its other lines.
            lines.add(emf(at, List.of(directive("LocalTest", List.of(List.of()), Map.of("Widgets", "Count"))),
                    Map.of("Widgets", 7)));
            var r = post("/emit", String.join("\n", lines));
            assertEquals(200, r.statusCode(), r.body());
        }
        awaitWidgets(4);

        String dom = Chromium.dumpDom(chromium, dashboardUrl());
        Chromium.screenshot(chromium, dashboardUrl(), SCREENSHOT);

        Map<String, String> states = panelStates(dom);
        for (String panel : PANELS) {
            assertEquals("data", states.get(panel), panel + " in " + states);
            assertTrue(dom.contains("<svg class=\"chart\" viewBox=\"0 0 420 150\" data-chart=\"" + panel + "\""),
                    "a chart for " + panel + ": " + dom);
        }
        assertEquals("data", states.get("all-metrics"));
        assertTrue(dom.contains("data-line=\"rate\""), dom);
        Matcher rate = Pattern.compile("data-line=\"rate\" data-points=\"\\[(.*?)]\"").matcher(dom);
        assertTrue(rate.find(), dom);
        assertEquals(4, rate.group(1).split("],\\[").length, "a point per invocation: " + rate.group(1));
        assertTrue(dom.contains("<polyline"), dom);
        assertTrue(dom.contains("data-bar=\"2\" data-value=\"2\""), "SuccessAttempt 2 twice: " + dom);

        Map<String, Double> figures = figures(dom);
        Map<String, Double> expected = new LinkedHashMap<>();
        // 5 transient and 1 slow attempts, 4 successes; each attempt line is in three dimension sets, counted once.
        expected.put("transient-rate.rate", 6.0 / 10);
        expected.put("transient-rate.numerator", 6.0);
        expected.put("transient-rate.denominator", 10.0);
        expected.put("retries-per-success.mean", (0 + 1 + 1 + 3) / 4.0);
        expected.put("retries-per-success.count", 4.0);
        expected.put("success-by-attempt.share.1", 0.25);
        expected.put("success-by-attempt.share.2", 0.5);
        expected.put("success-by-attempt.share.4", 0.25);
        expected.put("success-by-attempt.count.2", 2.0);
        // Nearest rank of 40, 180, 220, 900: p50 the 2nd, p99 the 4th.
        expected.put("time-to-success.p50", 180.0);
        expected.put("time-to-success.p99", 900.0);
        expected.put("breaker.to OPEN", 2.0);
        expected.put("breaker.to HALF_OPEN", 1.0);
        expected.put("breaker.to CLOSED", 1.0);
        expected.put("breaker.open minutes", 1.5);
        expected.put("api-requests.2xx", 2.0);
        expected.put("api-requests.4xx", 1.0);
        expected.put("api-requests.5xx", 1.0);
        expected.put("api-requests.database unavailable", 1.0);
        // Latency values 5 8 12 15 30 45 100 (arrays in the lines): p50 the 4th, p99 the 7th.
        expected.put("api-latency.p50", 15.0);
        expected.put("api-latency.p99", 100.0);
        expected.put("api-latency.count", 7.0);
        expected.put("sweeper.Deleted", 1.0 + 2 + 3 + 4);
        expected.put("sweeper.ObjectsRemoved", 8.0);
        expected.put("sweeper.DeadLettersKept", 0.0);
        expected.forEach((figure, value) -> {
            assertTrue(figures.containsKey(figure), figure + " missing from " + figures);
            assertEquals(value, figures.get(figure), 1e-9, figure);
        });

        // The table of all metrics has what no panel shows.
        Matcher widgets = Pattern.compile("<tr data-metric=\"Widgets\" data-dimensions=\"\\{}\">.*?"
                + "data-col=\"count\" data-value=\"(\\d+)\".*?data-col=\"sum\" data-value=\"(\\d+)\"").matcher(dom);
        assertTrue(widgets.find(), dom);
        assertEquals("4", widgets.group(1));
        assertEquals("28", widgets.group(2));
        assertTrue(Files.size(SCREENSHOT) > 10_000, "a screenshot at " + SCREENSHOT);
    }

    @Test
    @Order(3)
    void aShorterSpanShowsOnlyTheMetricLinesStampedWithinIt() throws Exception {
        // The last two invocations' lines are stamped 90 s ago and now; the others 180 s and 270 s ago.
        Map<String, Double> figures = figures(Chromium.dumpDom(chromium, dashboardUrl() + "?minutes=2"));

        assertEquals(1.0 + 3 + 1, figures.get("transient-rate.numerator"), figures.toString());
        assertEquals(4.0 + 3, figures.get("transient-rate.denominator"));
        assertEquals(3.0 + 4, figures.get("sweeper.Deleted"));
    }

    @Test
    @Order(4)
    void thePageLoadsOnlyItsOwnScriptUnderAStrictContentSecurityPolicy() throws Exception {
        var page = get("/_local/dashboard");
        assertEquals(200, page.statusCode());
        String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertTrue(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), csp);
        assertFalse(csp.contains("unsafe-inline"), csp);
        assertTrue(page.body().contains("<script src=\"/_local/dashboard.js\" defer></script>"), page.body());
        assertFalse(Pattern.compile("<script(?![^>]*\\ssrc=)").matcher(page.body()).find(), "no inline script");
        assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(page.body()).find(), "no external asset");

        var script = get("/_local/dashboard.js");
        assertEquals(200, script.statusCode());
        assertTrue(script.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
        // The fixture's ANY /{proxy+} route answers everything else, yet not the reserved prefix.
        assertEquals(404, get("/_local/nothing-here").statusCode());
        assertEquals("0 lines printed", get("/_localized/path").body());
        assertEquals(405, post("/_local/metrics", "").statusCode());
        assertEquals("application/json", get("/_local/metrics").headers().firstValue("Content-Type").orElseThrow());
    }

    // ---- the metric lines ---------------------------------------------------------------------------------

    private static String uploadAttempt(long at, String outcome, String errorClass) {
        return emf(at, List.of(directive("Pastebin", List.of(List.of("Service", "Outcome", "ErrorClass"),
                        List.of("Service", "Outcome"), List.of("Service")), Map.of("UploadAttempts", "Count"))),
                Map.of("Service", "upload", "Outcome", outcome, "ErrorClass", errorClass, "UploadAttempts", 1));
    }

    private static String apiRequest(long at, String service, String statusCode, double[] latencies) {
        List<ObjectNode> directives = new ArrayList<>(List.of(directive("Pastebin",
                List.of(List.of("Service", "StatusCode"), List.of("Service")),
                Map.of("Requests", "Count", "Latency", "Milliseconds"))));
        Map<String, Object> fields = new LinkedHashMap<>(Map.of("Service", service, "StatusCode", statusCode,
                "Requests", 1, "Latency", latencies));
        if (statusCode.equals("503")) {
            directives.add(directive("Pastebin", List.of(List.of("Service", "Dependency")),
                    Map.of("DependencyUnavailable", "Count")));
            fields.put("Dependency", "database");
            fields.put("DependencyUnavailable", 1);
        }
        return emf(at, directives, fields);
    }

    private static ObjectNode directive(String namespace, List<List<String>> dimensionSets, Map<String, String> units) {
        ObjectNode d = Json.object().put("Namespace", namespace);
        d.set("Dimensions", Json.MAPPER.valueToTree(dimensionSets));
        var metrics = d.putArray("Metrics");
        units.forEach((name, unit) -> metrics.addObject().put("Name", name).put("Unit", unit));
        return d;
    }

    private static String emf(long timestamp, List<ObjectNode> directives, Map<String, Object> fields) {
        ObjectNode line = Json.MAPPER.valueToTree(fields);
        ObjectNode aws = line.putObject("_aws").put("Timestamp", timestamp);
        aws.putArray("CloudWatchMetrics").addAll(directives);
        return line.toString();
    }

    // ---- the page and the API -----------------------------------------------------------------------------

    private static String dashboardUrl() {
        return "http://127.0.0.1:" + port + "/_local/dashboard";
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "text/plain; charset=utf-8").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The function's output is read by a thread of its own: waits until the runtime has its last lines. */
    private static void awaitWidgets(long count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long seen = 0;
        while (System.nanoTime() < deadline) {
            JsonNode json = Json.MAPPER.readTree(get("/_local/metrics").body());
            seen = 0;
            for (JsonNode s : json.get("series")) {
                if (s.get("name").asText().equals("Widgets")) {
                    for (JsonNode p : s.get("points")) {
                        seen += p.get("count").asLong();
                    }
                }
            }
            if (seen == count) {
                return;
            }
            Thread.sleep(100);
        }
        fail("the runtime collected " + seen + " of " + count + " Widgets datapoints");
    }

    private static Map<String, String> panelStates(String dom) {
        Map<String, String> states = new LinkedHashMap<>();
        Matcher m = Pattern.compile("data-panel=\"([^\"]+)\" data-state=\"([^\"]+)\"").matcher(dom);
        while (m.find()) {
            states.put(m.group(1), m.group(2));
        }
        return states;
    }

    /** The figures the page shows, by data-figure: the raw number of each (its data-value). */
    private static Map<String, Double> figures(String dom) {
        Map<String, Double> figures = new LinkedHashMap<>();
        Matcher m = Pattern.compile("<tr data-figure=\"([^\"]+)\">.*?data-value=\"([^\"]*)\"").matcher(dom);
        while (m.find()) {
            figures.put(m.group(1), Double.valueOf(m.group(2)));
        }
        return figures;
    }
}
