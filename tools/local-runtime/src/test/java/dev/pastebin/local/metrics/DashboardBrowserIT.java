package dev.pastebin.local.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.TestSupport;
import dev.pastebin.local.browser.Chromium;
import dev.pastebin.local.cli.LocalRuntime;
import dev.pastebin.local.cli.RuntimeSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The metrics dashboard in a real headless Chromium against a running local runtime: a fixture function
 * prints known Embedded Metric Format lines of a made-up application, the panels come from a panel file of
 * the same made-up metrics ({@code fixture/dashboard.json}), and the figures the page shows must be the ones
 * those lines imply, read by a real headless Chromium ({@link Chromium}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path SCREENSHOT = TARGET.resolve("dashboard.png");
    private static final List<String> PANELS = List.of(
            "failure-rate",
            "mean-retries",
            "tries-to-pay",
            "time-to-ship",
            "states",
            "calls",
            "call-duration",
            "janitor");

    private static String chromium;
    private static LocalRuntime runtime;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        chromium = Chromium.find();
        runtime = LocalRuntime.create(
                settings(Path.of("target/test-classes/fixture/dashboard.json").toAbsolutePath(), "metrics", true),
                System.err);
        port = runtime.start();
    }

    private static RuntimeSettings settings(Path dashboard, String work, boolean eager) {
        Path template =
                Path.of("target/test-classes/fixture/metrics-template.yaml").toAbsolutePath();
        return new RuntimeSettings(
                "127.0.0.1",
                0,
                template,
                List.of(),
                Map.of(),
                Map.of(),
                TestSupport.ricLib(),
                Path.of("target/local-runtime-work-" + work),
                1,
                eager,
                null,
                "us-east-1",
                "000000000000",
                null,
                dashboard,
                TestSupport.INIT_TIMEOUT,
                null,
                null,
                null);
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
        // Four invocations, as four checkouts and four calls of a made-up shop would emit (one directive per line or
        // several),
        // their lines stamped 90 s apart so that the charts have four points.
        int[] transientBefore = {0, 1, 1, 3};
        int[] timeToShip = {40, 180, 220, 900};
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
                lines.add(order(at, "transient", "SlowDown"));
            }
            if (i == 3) {
                // another paste, its fast attempts used up, retrying slowly: a transient failure too
                lines.add(order(at, "slow", "SERVER_ERROR"));
            }
            lines.add(order(at, "success", "none"));
            lines.add(emf(
                    at,
                    List.of(directive(
                            "Shop",
                            List.of(List.of("Service")),
                            Map.of("TriesToPay", "None", "Retries", "Count", "TimeToShip", "Milliseconds"))),
                    Map.of(
                            "Service",
                            "checkout",
                            "TriesToPay",
                            transientBefore[i] + 1,
                            "Retries",
                            transientBefore[i],
                            "TimeToShip",
                            timeToShip[i])));
            for (String to : transitions[i]) {
                lines.add(emf(
                        at,
                        List.of(directive("Shop", List.of(List.of("Service", "To")), Map.of("StateChanges", "Count"))),
                        Map.of("Service", "checkout", "To", to, "StateChanges", 1)));
            }
            if (i == 3) {
                lines.add(emf(
                        at,
                        List.of(directive("Shop", List.of(List.of("Service")), Map.of("PausedMinutes", "None"))),
                        Map.of("Service", "checkout", "PausedMinutes", 1.5)));
            }
            lines.add(call(at, i % 2 == 0 ? "browse" : "pay", statusCodes[i], latencies[i]));
            lines.add(emf(
                    at,
                    List.of(directive(
                            "Shop",
                            List.of(List.of("Service")),
                            Map.of("Cleaned", "Count", "Archived", "Count", "Kept", "Count"))),
                    Map.of("Service", "janitor", "Cleaned", i + 1, "Archived", 2, "Kept", 0)));
            // Last: once every invocation's Widgets are in, so are all of its other lines.
            lines.add(emf(
                    at,
                    List.of(directive("LocalTest", List.of(List.of()), Map.of("Widgets", "Count"))),
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
            assertTrue(
                    dom.contains("<svg class=\"chart\" viewBox=\"0 0 420 150\" data-chart=\"" + panel + "\""),
                    "a chart for " + panel + ": " + dom);
        }
        assertEquals("data", states.get("all-metrics"));
        assertTrue(dom.contains("data-line=\"rate\""), dom);
        Matcher rate =
                Pattern.compile("data-line=\"rate\" data-points=\"\\[(.*?)]\"").matcher(dom);
        assertTrue(rate.find(), dom);
        assertEquals(4, rate.group(1).split("],\\[").length, "a point per invocation: " + rate.group(1));
        assertTrue(dom.contains("<polyline"), dom);
        assertTrue(dom.contains("data-bar=\"2\" data-value=\"2\""), "TriesToPay 2 twice: " + dom);

        Map<String, Double> figures = figures(dom);
        Map<String, Double> expected = new LinkedHashMap<>();
        // 5 transient and 1 slow deliveries, 4 successes; each delivery line is in three dimension sets, counted once.
        expected.put("failure-rate.rate", 6.0 / 10);
        expected.put("failure-rate.numerator", 6.0);
        expected.put("failure-rate.denominator", 10.0);
        expected.put("mean-retries.mean", (0 + 1 + 1 + 3) / 4.0);
        expected.put("mean-retries.count", 4.0);
        expected.put("tries-to-pay.share.1", 0.25);
        expected.put("tries-to-pay.share.2", 0.5);
        expected.put("tries-to-pay.share.4", 0.25);
        expected.put("tries-to-pay.count.2", 2.0);
        // Nearest rank of 40, 180, 220, 900: p50 the 2nd, p99 the 4th.
        expected.put("time-to-ship.p50", 180.0);
        expected.put("time-to-ship.p99", 900.0);
        expected.put("states.to OPEN", 2.0);
        expected.put("states.to HALF_OPEN", 1.0);
        expected.put("states.to CLOSED", 1.0);
        expected.put("states.open minutes", 1.5);
        expected.put("calls.2xx", 2.0);
        expected.put("calls.4xx", 1.0);
        expected.put("calls.5xx", 1.0);
        expected.put("calls.bank unavailable", 1.0);
        // Latency values 5 8 12 15 30 45 100 (arrays in the lines): p50 the 4th, p99 the 7th.
        expected.put("call-duration.p50", 15.0);
        expected.put("call-duration.p99", 100.0);
        expected.put("call-duration.count", 7.0);
        expected.put("janitor.Cleaned", 1.0 + 2 + 3 + 4);
        expected.put("janitor.Archived", 8.0);
        expected.put("janitor.Kept", 0.0);
        expected.forEach((figure, value) -> {
            assertTrue(figures.containsKey(figure), figure + " missing from " + figures);
            assertEquals(value, figures.get(figure), 1e-9, figure);
        });

        // The table of all metrics has what no panel shows.
        Matcher widgets = Pattern.compile("<tr data-metric=\"Widgets\" data-dimensions=\"\\{}\">.*?"
                        + "data-col=\"count\" data-value=\"(\\d+)\".*?data-col=\"sum\" data-value=\"(\\d+)\"")
                .matcher(dom);
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

        assertEquals(1.0 + 3 + 1, figures.get("failure-rate.numerator"), figures.toString());
        assertEquals(4.0 + 3, figures.get("failure-rate.denominator"));
        assertEquals(3.0 + 4, figures.get("janitor.Cleaned"));
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
        assertFalse(
                Pattern.compile("<script(?![^>]*\\ssrc=)").matcher(page.body()).find(), "no inline script");
        assertFalse(
                Pattern.compile("(src|href)=\"(https?:)?//")
                        .matcher(page.body())
                        .find(),
                "no external asset");

        var script = get("/_local/dashboard.js");
        assertEquals(200, script.statusCode());
        assertTrue(script.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
        // The fixture's ANY /{proxy+} route answers everything else, yet not the reserved prefix.
        assertEquals(404, get("/_local/nothing-here").statusCode());
        assertEquals("0 lines printed", get("/_localized/path").body());
        assertEquals(405, post("/_local/metrics", "").statusCode());
        assertEquals(
                "application/json",
                get("/_local/metrics").headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    @Order(5)
    @SuppressWarnings("ClosingStandardOutputStreams") // closes the runtime, which leaves System.err open
    void withoutAPanelFileThePageShowsOnlyTheTableOfEveryMetric() throws Exception {
        try (var bare = LocalRuntime.create(settings(null, "metrics-bare", false), System.err)) {
            int barePort = bare.start();
            var panels = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + barePort + "/_local/dashboard.json"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, panels.statusCode());
            assertEquals("{\"panels\":[]}", panels.body());

            String dom = Chromium.dumpDom(chromium, "http://127.0.0.1:" + barePort + "/_local/dashboard");

            assertEquals(Set.of("all-metrics"), panelStates(dom).keySet(), dom);
            assertTrue(dom.contains("id=\"status\" data-state=\"ok\""), dom);
        }
    }

    // ---- the metric lines ---------------------------------------------------------------------------------

    private static String order(long at, String outcome, String errorClass) {
        return emf(
                at,
                List.of(directive(
                        "Shop",
                        List.of(
                                List.of("Service", "Outcome", "Reason"),
                                List.of("Service", "Outcome"),
                                List.of("Service")),
                        Map.of("Orders", "Count"))),
                Map.of("Service", "checkout", "Outcome", outcome, "Reason", errorClass, "Orders", 1));
    }

    private static String call(long at, String service, String statusCode, double[] latencies) {
        List<ObjectNode> directives = new ArrayList<>(List.of(directive(
                "Shop",
                List.of(List.of("Service", "Code"), List.of("Service")),
                Map.of("Calls", "Count", "Duration", "Milliseconds"))));
        Map<String, Object> fields =
                new LinkedHashMap<>(Map.of("Service", service, "Code", statusCode, "Calls", 1, "Duration", latencies));
        if (statusCode.equals("503")) {
            directives.add(directive("Shop", List.of(List.of("Service", "Supplier")), Map.of("Outages", "Count")));
            fields.put("Supplier", "bank");
            fields.put("Outages", 1);
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
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Content-Type", "text/plain; charset=utf-8")
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
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
        Matcher m = Pattern.compile("data-panel=\"([^\"]+)\" data-state=\"([^\"]+)\"")
                .matcher(dom);
        while (m.find()) {
            states.put(m.group(1), m.group(2));
        }
        return states;
    }

    /** The figures the page shows, by data-figure: the raw number of each (its data-value). */
    private static Map<String, Double> figures(String dom) {
        Map<String, Double> figures = new LinkedHashMap<>();
        Matcher m = Pattern.compile("<tr data-figure=\"([^\"]+)\">.*?data-value=\"([^\"]*)\"")
                .matcher(dom);
        while (m.find()) {
            figures.put(m.group(1), Double.valueOf(m.group(2)));
        }
        return figures;
    }
}
