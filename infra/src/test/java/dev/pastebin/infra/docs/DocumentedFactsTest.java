package dev.pastebin.infra.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tables in docs/ that restate the code, held to their sources so the next drift fails the build: the
 * metrics (design.md) to {@link Metric}, the error codes (using.md) to {@link ApiErrorCode}, the alarms
 * (operating.md) to the template, the database roles (operating.md) to core's db/roles.sql, and the
 * configuration (operating.md) to the settings the functions read: Micronaut's configuration metadata of every
 * {@code @ConfigurationProperties} record and what the template sets.
 */
class DocumentedFactsTest {

    private static final List<String> FUNCTION_MODULES = List.of(
            "core",
            "api-core",
            "create-function",
            "read-function",
            "remove-function",
            "report-function",
            "privatebin-function",
            "upload-function",
            "sweeper-function",
            "moderation-function",
            "moderation-outbox-function");
    /** Settings read with {@code @Requires}/{@code @Value} rather than a properties record, so not in the metadata. */
    private static final Set<String> PROPERTIES_OUTSIDE_RECORDS = Set.of("pastebin.database.secret-id");

    private static final Pattern ENVIRONMENT_NAME = Pattern.compile("^_?[A-Z][A-Z0-9_]*$");

    @Test
    void theMetricsTableNamesEveryMetricOnce() throws IOException {
        List<List<String>> rows =
                MarkdownDocument.read("docs/design.md").section("Observability").table("metric", "unit");
        List<String> documented = rows.stream()
                .flatMap(row -> MarkdownDocument.codeSpans(row.getFirst()).stream())
                .toList();
        Set<String> metrics =
                Arrays.stream(Metric.values()).map(Metric::metricName).collect(Collectors.toSet());
        assertEquals(
                new TreeSet<>(metrics), new TreeSet<>(documented), "docs/design.md's metrics table against Metric");
        assertEquals(documented.size(), new HashSet<>(documented).size(), "a metric listed twice: " + documented);
    }

    @Test
    void theErrorTableGivesEveryCodeWithItsStatus() throws IOException {
        Map<String, Integer> documented = new TreeMap<>();
        for (List<String> row :
                MarkdownDocument.read("docs/using.md").section("Errors").table("status", "`code`")) {
            documented.put(MarkdownDocument.codeSpans(row.get(1)).getFirst(), Integer.parseInt(row.getFirst()));
        }
        Map<String, Integer> codes = new TreeMap<>();
        for (ApiErrorCode code : ApiErrorCode.values()) {
            codes.put(code.name(), code.status().getCode());
        }
        assertEquals(codes, documented, "docs/using.md's error table against ApiErrorCode");
    }

    @Test
    void theAlarmTableNamesExactlyTheTemplatesAlarms() throws IOException {
        List<String> documented =
                MarkdownDocument.read("docs/operating.md")
                        .section("Alarms and what to do")
                        .table("alarm", "watches")
                        .stream()
                        .flatMap(row -> MarkdownDocument.codeSpans(row.getFirst()).stream())
                        .toList();
        CloudFormationTemplate template = CloudFormationTemplate.load(Path.of("template.yaml"));
        assertEquals(
                new TreeSet<>(template.resourcesOfType("AWS::CloudWatch::Alarm")),
                new TreeSet<>(documented),
                "docs/operating.md's alarm table against the template's alarms");
    }

    /** Each (role, privilege, table) that roles.sql grants, and the same read from the doc's table. */
    @Test
    void theRolesTableGrantsWhatRolesSqlGrants() throws IOException {
        Set<String> granted = new TreeSet<>();
        Matcher tuple = Pattern.compile("\\('(pastebin_\\w+)',\\s*'([A-Z, ]+)',\\s*'([a-z_, ]+)'\\)")
                .matcher(Files.readString(Path.of("../core/src/main/resources/db/roles.sql")));
        while (tuple.find()) {
            for (String privilege : tuple.group(2).split(",\\s*")) {
                for (String table : tuple.group(3).split(",\\s*")) {
                    granted.add(tuple.group(1) + " " + privilege + " " + table);
                }
            }
        }
        assertTrue(granted.size() > 10, "roles.sql parsed: " + granted);
        Set<String> documented = new TreeSet<>();
        for (List<String> row : MarkdownDocument.read("docs/operating.md")
                .section("Database roles")
                .table("role", "privileges")) {
            String role = MarkdownDocument.codeSpans(row.getFirst()).getFirst();
            // "`SELECT, UPDATE` on `pastes` (why …); `SELECT` on `circuit_breakers`": the parentheses explain
            for (String grant : row.get(1).replaceAll("\\([^)]*\\)", "").split(";")) {
                List<String> spans = MarkdownDocument.codeSpans(grant);
                for (String privilege : spans.getFirst().split(",\\s*")) {
                    for (String table : spans.subList(1, spans.size())) {
                        documented.add(role + " " + privilege + " " + table);
                    }
                }
            }
        }
        assertEquals(granted, documented, "docs/operating.md's roles table against core's db/roles.sql");
    }

    @Test
    void theConfigurationTablesNameEverySettingAndOnlyRealOnes() throws IOException {
        Set<String> settings = new TreeSet<>(PROPERTIES_OUTSIDE_RECORDS);
        Set<String> maps = new TreeSet<>();
        for (String module : FUNCTION_MODULES) {
            Path metadata = Path.of("..", module, "target/classes/META-INF/spring-configuration-metadata.json");
            if (!Files.exists(metadata)) {
                continue; // a module without a properties record of its own
            }
            for (JsonNode property : Json.MAPPER.readTree(metadata.toFile()).path("properties")) {
                settings.add(property.path("name").asText());
                if (property.path("type").asText().startsWith("java.util.Map")) {
                    maps.add(property.path("name").asText());
                }
            }
        }
        assertTrue(
                settings.contains("pastebin.paste.max-content-bytes")
                        && settings.contains("pastebin.sweeper.batch-size"),
                "the modules were compiled, with their metadata: " + settings);
        Set<String> known =
                settings.stream().map(DocumentedFactsTest::environmentName).collect(Collectors.toSet());
        Set<String> knownMaps =
                maps.stream().map(name -> environmentName(name) + "_").collect(Collectors.toSet());

        Set<String> documented = new TreeSet<>();
        MarkdownDocument configuration =
                MarkdownDocument.read("docs/operating.md").section("Configuration");
        for (String line : configuration.text().split("\n")) {
            String firstName = null;
            for (String span :
                    MarkdownDocument.codeSpans(line.startsWith("|") ? line.substring(0, line.indexOf('|', 1)) : line)) {
                if (!ENVIRONMENT_NAME.matcher(span).matches() || !span.contains("_") || span.startsWith("AWS_")) {
                    continue;
                }
                if (span.startsWith("_")) { // "`PASTEBIN_BREAKER_WINDOW` / `_MINIMUM_CALLS`": the first name's prefix
                    documented.add(resolveShorthand(firstName, span, known, knownMaps, line));
                } else {
                    firstName = span;
                    documented.add(span);
                }
            }
        }
        Set<String> unknown = documented.stream()
                .filter(name -> name.startsWith("PASTEBIN_") && !isKnown(name, known, knownMaps))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), unknown, "docs/operating.md's configuration names settings no code reads");
        Set<String> undocumented = new TreeSet<>(known);
        undocumented.removeAll(documented);
        undocumented.removeIf(name -> knownMaps.stream()
                .anyMatch(
                        map -> map.startsWith(name + "_") && documented.stream().anyMatch(d -> d.startsWith(map))));
        assertEquals(Set.of(), undocumented, "settings docs/operating.md's configuration does not name");

        CloudFormationTemplate template = CloudFormationTemplate.load(Path.of("template.yaml"));
        Set<String> setByTemplate = new TreeSet<>();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            template.environment(function).keySet().stream()
                    .filter(name -> name.startsWith("PASTEBIN_"))
                    .forEach(setByTemplate::add);
        }
        setByTemplate.removeAll(documented);
        assertEquals(
                Set.of(),
                setByTemplate,
                "settings the template passes that docs/operating.md's configuration does not name");
    }

    private static String environmentName(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static boolean isKnown(String name, Set<String> known, Set<String> knownMaps) {
        return known.contains(name) || knownMaps.stream().anyMatch(name::startsWith);
    }

    /** {@code _SUFFIX} after {@code FIRST_NAME}: the prefix of the first name (at an underscore) that makes a known setting. */
    private static String resolveShorthand(
            String firstName, String suffix, Set<String> known, Set<String> knownMaps, String line) {
        assertTrue(firstName != null, "a shorthand with no full name before it: " + line);
        for (int cut = firstName.lastIndexOf('_'); cut > 0; cut = firstName.lastIndexOf('_', cut - 1)) {
            String candidate = firstName.substring(0, cut) + suffix;
            if (isKnown(candidate, known, knownMaps)) {
                return candidate;
            }
        }
        return firstName + suffix; // unknown: reported as such
    }
}
