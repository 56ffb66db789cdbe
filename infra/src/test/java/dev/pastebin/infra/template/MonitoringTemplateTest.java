package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.local.template.CloudFormationTemplate;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The dashboard and alarms of infra/template.yaml against the metrics the code emits
 * ({@link Metric}): nothing on them names a metric, or a dimension combination, that no function writes.
 */
class MonitoringTemplateTest {

    private static final Pattern SEARCH = Pattern.compile("SEARCH\\('\\{([^}]*)} MetricName=\"(\\w+)\"");
    /** The functions' Service dimensions; moderation is the operator function that counts takedowns. */
    private static final Set<String> SERVICES =
            Set.of("create", "read", "remove", "report", "upload", "sweeper", "moderation");

    private final CloudFormationTemplate template = InfraTemplate.load();

    @Test
    void theDashboardShowsEveryMetricTheCodeEmitsAndNoOther() throws IOException {
        Set<Metric> shown = new HashSet<>();
        for (Map<String, Object> widget : widgets()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> properties = (Map<String, Object>) widget.get("properties");
            if (!"metric".equals(widget.get("type"))) {
                continue;
            }
            assertTrue(
                    properties.get("period") instanceof Number,
                    "every graph has its period: " + properties.get("title"));
            List<String> previous = List.of();
            for (Object row : assertInstanceOf(List.class, properties.get("metrics"))) {
                List<?> items = (List<?>) row;
                if (items.getFirst() instanceof Map<?, ?> expression) {
                    Matcher search = SEARCH.matcher(String.valueOf(expression.get("expression")));
                    while (search.find()) {
                        List<String> schema = List.of(search.group(1).split(","));
                        if (schema.getFirst().equals(Metrics.NAMESPACE)) {
                            shown.add(pastebinMetric(search.group(2), schema.subList(1, schema.size()), properties));
                        }
                    }
                    continue;
                }
                List<String> expanded = expand(
                        previous,
                        items.stream()
                                .filter(String.class::isInstance)
                                .map(String.class::cast)
                                .toList());
                previous = expanded;
                if (expanded.getFirst().equals(Metrics.NAMESPACE)) {
                    List<String> keys = new ArrayList<>();
                    for (int i = 2; i < expanded.size(); i += 2) {
                        keys.add(expanded.get(i));
                        if (expanded.get(i).equals("Service")) {
                            assertTrue(SERVICES.contains(expanded.get(i + 1)), expanded.toString());
                        }
                    }
                    shown.add(pastebinMetric(expanded.get(1), keys, properties));
                }
            }
        }
        assertEquals(Set.of(Metric.values()), shown, "every metric is on the dashboard");
    }

    /**
     * A transient S3 failure ends its attempt as {@code transient} (fast retries left) or {@code slow} (fast
     * attempts used up, waiting on the hold schedule): the transient-failure rate counts both, or a lone paste
     * retrying through a long outage would vanish from it.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theTransientFailureRateCountsFastAndSlowRetries() throws IOException {
        Map<String, Object> properties = widgets().stream()
                .map(w -> (Map<String, Object>) w.get("properties"))
                .filter(p -> String.valueOf(p.get("title")).startsWith("Transient-failure rate"))
                .findFirst()
                .orElseThrow();
        Set<String> outcomes = new HashSet<>();
        String rate = null;
        List<String> previous = List.of();
        for (Object row : assertInstanceOf(List.class, properties.get("metrics"))) {
            List<?> items = (List<?>) row;
            if (items.getFirst() instanceof Map<?, ?> expression) {
                rate = String.valueOf(expression.get("expression"));
                continue;
            }
            List<String> expanded = expand(
                    previous,
                    items.stream()
                            .filter(String.class::isInstance)
                            .map(String.class::cast)
                            .toList());
            previous = expanded;
            int outcome = expanded.indexOf("Outcome");
            if (outcome > 0) {
                outcomes.add(expanded.get(outcome + 1));
                String id = String.valueOf(((Map<String, Object>) items.getLast()).get("id"));
                assertTrue(rate != null && rate.contains(id), "the rate adds up " + id + ": " + rate);
            }
        }
        assertEquals(Set.of("transient", "slow"), outcomes);
    }

    @Test
    void theAlarmsWatchRetriesPerSuccessApi5xxTheHttpFunctionsAndTheBreaker() {
        Map<String, Object> retries = template.properties("UploadRetriesPerSuccessAlarm");
        assertEquals(
                List.of("Pastebin", "RetriesPerSuccess", "Average"),
                List.of(retries.get("Namespace"), retries.get("MetricName"), retries.get("Statistic")));
        double threshold = ((Number) retries.get("Threshold")).doubleValue();
        assertTrue(
                threshold > 0 && threshold < 1,
                "healthy S3 needs ~0 retries per success; a dead one never succeeds: " + threshold);

        Map<String, Object> api = template.properties("ApiServerErrorsAlarm");
        assertEquals(List.of("AWS/ApiGateway", "5xx"), List.of(api.get("Namespace"), api.get("MetricName")));
        assertEquals(List.of(Map.of("Name", "ApiId", "Value", Map.of("Ref", "HttpApi"))), api.get("Dimensions"));

        for (var function : Map.of(
                        "CreatePasteErrorsAlarm", "CreatePasteFunction", "ReadPasteErrorsAlarm", "ReadPasteFunction")
                .entrySet()) {
            Map<String, Object> errors = template.properties(function.getKey());
            assertEquals(List.of("AWS/Lambda", "Errors"), List.of(errors.get("Namespace"), errors.get("MetricName")));
            assertEquals(
                    List.of(Map.of("Name", "FunctionName", "Value", Map.of("Ref", function.getValue()))),
                    errors.get("Dimensions"));
        }

        Map<String, Object> breaker = template.properties("UploadBreakerOpenAlarm");
        assertEquals(Map.of("Service", "upload", "Outcome", "held"), dimensions(breaker));
        int window =
                ((Number) breaker.get("Period")).intValue() * ((Number) breaker.get("EvaluationPeriods")).intValue();
        assertTrue(
                window <= 15 * 60,
                "fires within 15 min of S3 becoming unusable, long before a held job's 24 h: " + window + " s");

        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> properties = template.properties(alarm);
            assertTrue(properties.get("Threshold") != null && properties.get("TreatMissingData") != null, alarm);
            if (Metrics.NAMESPACE.equals(properties.get("Namespace"))) {
                pastebinMetric(
                        (String) properties.get("MetricName"),
                        List.copyOf(dimensions(properties).keySet()),
                        Map.of("title", alarm));
            }
        }
    }

    /**
     * A dead upload worker (wrong database password, security group, Init failure) leaves every paste at 202:
     * each cause has an alarm that fires within 15 minutes, and the stuck-paste gauge comes from the sweeper,
     * which has its own role and secret, so it does not depend on the worker emitting anything.
     */
    @Test
    void aBrokenUploadPathAlarmsWithinFifteenMinutes() {
        Map<String, Object> stuck = alarmOn(Metrics.NAMESPACE, "OldestInProgressAge", Map.of("Service", "sweeper"));
        assertEquals("Maximum", stuck.get("Statistic"));
        assertEquals("breaching", stuck.get("TreatMissingData"), "a sweeper that cannot report alarms too");
        assertWithinFifteenMinutes(stuck);
        assertTrue(
                ((Number) stuck.get("Threshold")).doubleValue() < 15 * 60, "a paste is stuck well before 15 minutes");

        for (var function : List.of("UploadPasteFunction", "RemovePasteFunction")) {
            assertWithinFifteenMinutes(alarmOn("AWS/Lambda", "Errors", Map.of("FunctionName", function)));
        }
        assertWithinFifteenMinutes(alarmOn("AWS/Lambda", "Throttles", Map.of("FunctionName", "UploadPasteFunction")));

        for (var service : List.of("create", "read", "remove")) {
            assertWithinFifteenMinutes(alarmOn(
                    Metrics.NAMESPACE, "DependencyUnavailable", Map.of("Service", service, "Dependency", "database")));
        }
        assertWithinFifteenMinutes(alarmOn(
                Metrics.NAMESPACE,
                "UploadDeliveries",
                Map.of("Service", "upload", "Outcome", "transient", "ErrorClass", "DATABASE")));
    }

    /**
     * A row left IN_PROGRESS with no job must not hold the stuck-paste alarm until it is marked stuck, 18 days
     * later: the gauge leaves out rows older than a day, and those are counted by a metric with an alarm of
     * its own, which notifies while any exist and clears when they are resolved.
     */
    @Test
    void orphanPastesHaveTheirOwnAlarm() {
        Map<String, Object> orphans =
                alarmOn(Metrics.NAMESPACE, "OrphanInProgressPastes", Map.of("Service", "sweeper"));
        assertEquals(
                List.of("Maximum", 0.0, "GreaterThanThreshold"),
                List.of(
                        orphans.get("Statistic"),
                        ((Number) orphans.get("Threshold")).doubleValue(),
                        orphans.get("ComparisonOperator")));
        assertEquals(
                "notBreaching",
                orphans.get("TreatMissingData"),
                "a sweeper that cannot report is the stuck-paste alarm's");
        assertTrue(
                ((Number) orphans.get("Period")).intValue() * ((Number) orphans.get("EvaluationPeriods")).intValue()
                        <= 60 * 60,
                "an orphan is reported within the hour");
    }

    /** A reconciliation stopped by its guard (a wrong or restored database) notifies at its first run. */
    @Test
    void aStoppedOrphanReconciliationAlarmsAtOnce() {
        Map<String, Object> guard = alarmOn(Metrics.NAMESPACE, "OrphanGuardStops", Map.of("Service", "sweeper"));
        assertEquals(
                List.of("Sum", 1.0, "GreaterThanOrEqualToThreshold", 1),
                List.of(
                        guard.get("Statistic"),
                        ((Number) guard.get("Threshold")).doubleValue(),
                        guard.get("ComparisonOperator"),
                        guard.get("EvaluationPeriods")));
        assertTrue(((Number) guard.get("Period")).intValue() <= 300, "one sweep's period: " + guard.get("Period"));
    }

    /**
     * A database that went back in time (the sweep epoch behind the bucket's marker) notifies at the first sweep that
     * refuses to reconcile, stays in alarm while every sweep refuses, and clears once an operator acknowledges.
     */
    @Test
    void aRestoredDatabaseAlarmsAtOnceAndClearsWhenAcknowledged() {
        Map<String, Object> restored = alarmOn(Metrics.NAMESPACE, "DatabaseRestored", Map.of("Service", "sweeper"));
        assertEquals(
                List.of("Sum", 1.0, "GreaterThanOrEqualToThreshold", 1),
                List.of(
                        restored.get("Statistic"),
                        ((Number) restored.get("Threshold")).doubleValue(),
                        restored.get("ComparisonOperator"),
                        restored.get("EvaluationPeriods")));
        assertTrue(
                ((Number) restored.get("Period")).intValue() <= 300, "one sweep's period: " + restored.get("Period"));
        assertTrue(restored.containsKey("OKActions"), "the acknowledgement is notified too");
        assertEquals(restored, template.properties("SweeperDatabaseRestoredAlarm"));
    }

    /**
     * A paste's job waits in the dead-letter queue while the breaker is open (the sweeper requeues it once it
     * closes), and SQS deletes it at the queue's retention, counted from its hand-off or, for a job the redrive
     * moved, from its first send up to the upload queue's retention earlier; the metric counts from the move. So
     * the age alarm must fire at least a day before the shortest of those.
     */
    @Test
    void theDeadLetterQueuesAgeAlarmFiresAtLeastADayBeforeAnyDeadLetterExpires() {
        List<Map<String, Object>> found = new ArrayList<>();
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> properties = template.properties(alarm);
            if ("AWS/SQS".equals(properties.get("Namespace"))
                    && "ApproximateAgeOfOldestMessage".equals(properties.get("MetricName"))
                    && properties.get("Dimensions").toString().contains("UploadDeadLetterQueue")) {
                found.add(properties);
            }
        }
        assertEquals(1, found.size(), "one age alarm on the dead-letter queue");
        Map<String, Object> alarm = found.getFirst();
        assertEquals("Maximum", alarm.get("Statistic"));
        int window = ((Number) alarm.get("Period")).intValue() * ((Number) alarm.get("EvaluationPeriods")).intValue();
        long firesAt = ((Number) alarm.get("Threshold")).longValue() + window;
        long deadLetterRetention =
                template.intValue(template.properties("UploadDeadLetterQueue").get("MessageRetentionPeriod"));
        long uploadRetention =
                template.intValue(template.properties("UploadQueue").get("MessageRetentionPeriod"));
        assertTrue(
                firesAt + 86_400 <= deadLetterRetention - uploadRetention,
                "fires after " + firesAt + " s, less than a day before a redriven dead letter may expire");
    }

    @Test
    void theDashboardShowsTheRemoveFunction() throws IOException {
        String graphs = widgets().toString();
        Map<String, Object> dashboard = template.properties(
                template.resourcesOfType("AWS::CloudWatch::Dashboard").getFirst());
        assertTrue(dashboard.toString().contains("${RemovePasteFunction}"), "remove's Lambda errors are graphed");
        assertTrue(graphs.contains("remove"), "remove's latency is graphed");
    }

    private static void assertWithinFifteenMinutes(Map<String, Object> alarm) {
        int window = ((Number) alarm.get("Period")).intValue() * ((Number) alarm.get("EvaluationPeriods")).intValue();
        assertTrue(window <= 15 * 60, alarm.get("MetricName") + " alarms after " + window + " s");
    }

    /** The one alarm on this metric with exactly these dimensions ({Ref: X} values compared as X). */
    private Map<String, Object> alarmOn(String namespace, String metricName, Map<String, String> dimensions) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> properties = template.properties(alarm);
            if (namespace.equals(properties.get("Namespace"))
                    && metricName.equals(properties.get("MetricName"))
                    && dimensions.equals(dimensionsResolvingRefs(properties))) {
                found.add(properties);
            }
        }
        assertEquals(1, found.size(), "one alarm on " + namespace + " " + metricName + " " + dimensions);
        return found.getFirst();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> dimensionsResolvingRefs(Map<String, Object> alarm) {
        return ((List<Map<String, Object>>) alarm.get("Dimensions"))
                .stream()
                        .collect(Collectors.toMap(
                                d -> (String) d.get("Name"),
                                d -> d.get("Value") instanceof Map<?, ?> ref
                                        ? String.valueOf(ref.get("Ref"))
                                        : String.valueOf(d.get("Value"))));
    }

    /**
     * A lone paste retrying slowly through an outage opens no breaker (too few calls), has no successes for the
     * retries alarm and, received more than twice, is left out of the oldest-message age: its own alarm says
     * S3 has been failing it for a while, long before its 24 h are up.
     */
    @Test
    void slowRetriesRaiseTheirOwnAlarmEvenWhileTheBreakerStaysClosed() {
        Map<String, Object> slow = template.properties("UploadSlowRetriesAlarm");
        assertEquals(
                List.of("Pastebin", "UploadDeliveries", "Sum"),
                List.of(slow.get("Namespace"), slow.get("MetricName"), slow.get("Statistic")));
        assertEquals(Map.of("Service", "upload", "Outcome", "slow"), dimensions(slow));
        int period = ((Number) slow.get("Period")).intValue();
        int window = period * ((Number) slow.get("EvaluationPeriods")).intValue();
        assertTrue(
                period >= 305,
                "a slow paste comes back every 5 min (plus jitter): every period sees it: " + period + " s");
        assertTrue(
                window <= 60 * 60,
                "fires within an hour of a paste going slow, long before its 24 h: " + window + " s");
    }

    @Test
    void theStackOutputsTheDashboardsAddress() {
        Map<String, Object> output = CloudFormationTemplate.mapping(
                CloudFormationTemplate.mapping(template.root().get("Outputs"), "Outputs")
                        .get("DashboardUrl"),
                "DashboardUrl");
        String url = (String) CloudFormationTemplate.mapping(output.get("Value"), "DashboardUrl.Value")
                .get("Fn::Sub");
        assertTrue(
                url.endsWith("#dashboards:name=${"
                        + template.resourcesOfType("AWS::CloudWatch::Dashboard").getFirst() + "}"),
                url);
    }

    /** The metric named, checking its dimension names are one of the sets it is emitted under. */
    private static Metric pastebinMetric(String name, List<String> dimensionKeys, Map<String, Object> where) {
        Metric metric = Arrays.stream(Metric.values())
                .filter(m -> m.metricName().equals(name))
                .findFirst()
                .orElseGet(() ->
                        fail(where.get("title") + ": " + name + " is not emitted (dev.pastebin.core.metrics.Metric)"));
        List<String> declared =
                metric.dimensions().stream().map(Metric.Dimension::key).toList();
        assertTrue(
                !dimensionKeys.isEmpty()
                        && dimensionKeys.size() <= declared.size()
                        && Set.copyOf(declared.subList(0, dimensionKeys.size())).equals(Set.copyOf(dimensionKeys)),
                where.get("title") + ": " + name + " is emitted under prefixes of " + declared + ", not "
                        + dimensionKeys);
        return metric;
    }

    /** CloudWatch's shorthand: "." repeats the previous row's item in that place, "..." all items up to those given. */
    private static List<String> expand(List<String> previous, List<String> items) {
        if (!items.isEmpty() && items.getFirst().equals("...")) {
            List<String> rest = items.subList(1, items.size());
            List<String> expanded = new ArrayList<>(previous.subList(0, previous.size() - rest.size()));
            expanded.addAll(rest);
            return expanded;
        }
        List<String> expanded = new ArrayList<>(items);
        for (int i = 0; i < expanded.size(); i++) {
            if (expanded.get(i).equals(".")) {
                expanded.set(i, previous.get(i));
            }
        }
        return expanded;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> dimensions(Map<String, Object> alarm) {
        return ((List<Map<String, Object>>) alarm.get("Dimensions"))
                .stream()
                        .filter(d -> d.get("Value") instanceof String)
                        .collect(Collectors.toMap(d -> (String) d.get("Name"), d -> (String) d.get("Value")));
    }

    /** The dashboard body is JSON in a Fn::Sub; its ${…} references are replaced by a placeholder to parse it. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> widgets() throws IOException {
        Map<String, Object> dashboard = template.properties(
                template.resourcesOfType("AWS::CloudWatch::Dashboard").getFirst());
        String body = (String) ((Map<String, Object>) dashboard.get("DashboardBody")).get("Fn::Sub");
        Map<String, Object> parsed = ObjectMapper.getDefault()
                .readValue(body.replaceAll("\\$\\{[^}]+}", "resolved"), Argument.mapOf(String.class, Object.class));
        return (List<Map<String, Object>>) parsed.get("widgets");
    }
}
