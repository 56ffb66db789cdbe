package dev.pastebin.local.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The panels an application asks the dashboard to draw ({@code --dashboard FILE}), above the table of every
 * metric. The runtime knows no metric names: the file names them, and the page draws what it says. Read and
 * checked once at start, so a typo fails the start with the file's name instead of an empty chart.
 *
 * <p>The file is data only: a default {@code namespace}, then {@code panels}, each of one {@code kind}
 * (module README, "Metrics dashboard"). A counts line's {@code label} is a template: {@code {value}} is the
 * value of its {@code groupBy} dimension, {@code {value:N}} its first N characters.
 *
 * @param namespace the namespace of every metric reference that names none; may be null when each names one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DashboardPanels(String namespace, List<Panel> panels) {

    /** No panels: the page shows only the table of every metric. */
    public static final DashboardPanels NONE = new DashboardPanels(null, List.of());

    // Unknown fields fail by default; a key given twice would otherwise silently keep the last value.
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");
    private static final Pattern VALUE_PLACEHOLDER = Pattern.compile("value(:[1-9][0-9]*)?");

    public DashboardPanels {
        panels = List.copyOf(require(panels, "panels"));
        Set<String> ids = new HashSet<>();
        for (Panel panel : panels) {
            if (!ids.add(panel.id())) {
                throw new IllegalArgumentException("two panels have the id '" + panel.id() + "'");
            }
            for (MetricUse ref : panel.metrics()) {
                if (ref.namespace() == null && namespace == null) {
                    throw new IllegalArgumentException("panel '" + panel.id() + "': metric " + ref.metric()
                            + " has no namespace, and the file names no default one");
                }
            }
        }
    }

    /** Reads and checks a panel file; an unreadable or invalid one is an error naming the file and the fault. */
    public static DashboardPanels read(Path file) {
        byte[] json;
        try {
            json = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the dashboard file " + file + ": " + e, e);
        }
        try {
            return STRICT.readValue(json, DashboardPanels.class);
        } catch (IOException e) {
            // Jackson's message names the field, and carries the message of a check below.
            throw new IllegalArgumentException("the dashboard file " + file + " is not valid: " + e.getMessage(), e);
        }
    }

    /** The panels with every metric reference's namespace filled in: what the page reads. */
    public DashboardPanels resolved() {
        return new DashboardPanels(
                null, panels.stream().map(p -> p.inNamespace(namespace)).toList());
    }

    /** Every metric the panels read, namespaces filled in (for checks that the application emits them). */
    public List<MetricUse> metricUses() {
        return resolved().panels().stream().flatMap(p -> p.metrics().stream()).toList();
    }

    public byte[] toJson() {
        try {
            return STRICT.writeValueAsBytes(resolved());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A metric in one namespace; {@code where} keeps the series whose dimension has one of the values given.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record MetricReference(String namespace, String metric, Map<String, List<String>> where) {

        public MetricReference {
            require(metric, "metric");
            // in the file's order: the page shows the condition as written
            where = where == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(where));
            where.forEach((dimension, values) -> {
                if (values == null || values.isEmpty()) {
                    throw new IllegalArgumentException(
                            "where " + dimension + " of " + metric + " needs at least one value");
                }
            });
        }

        MetricReference inNamespace(String fallback) {
            return namespace != null ? this : new MetricReference(fallback, metric, where);
        }

        MetricUse use() {
            return new MetricUse(namespace, metric, where.keySet());
        }
    }

    /** A metric a panel reads, and the dimensions it selects or groups by. */
    public record MetricUse(String namespace, String metric, Set<String> dimensions) {}

    /** One chart with its table of figures. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = Ratio.class, name = "ratio"),
        @JsonSubTypes.Type(value = Mean.class, name = "mean"),
        @JsonSubTypes.Type(value = Distribution.class, name = "distribution"),
        @JsonSubTypes.Type(value = Percentiles.class, name = "percentiles"),
        @JsonSubTypes.Type(value = Counts.class, name = "counts")
    })
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public sealed interface Panel {
        String id();

        String title();

        String note();

        /** The metrics the panel reads. */
        List<MetricUse> metrics();

        Panel inNamespace(String namespace);
    }

    /** The sum of {@code numerator} per sum of {@code denominator}, per bucket and over the window. */
    public record Ratio(String id, String title, String note, MetricReference numerator, MetricReference denominator)
            implements Panel {
        public Ratio {
            checkHeader(id, title);
            require(numerator, "numerator");
            require(denominator, "denominator");
        }

        @Override
        public List<MetricUse> metrics() {
            return List.of(numerator.use(), denominator.use());
        }

        @Override
        public Panel inNamespace(String namespace) {
            return new Ratio(id, title, note, numerator.inNamespace(namespace), denominator.inNamespace(namespace));
        }
    }

    /** A metric's sum per count (the Average statistic). */
    public record Mean(String id, String title, String note, String namespace, String metric) implements Panel {
        public Mean {
            checkHeader(id, title);
            require(metric, "metric of panel '" + id + "'");
        }

        @Override
        public List<MetricUse> metrics() {
            return List.of(new MetricUse(namespace, metric, Set.of()));
        }

        @Override
        public Panel inNamespace(String fallback) {
            return namespace != null ? this : new Mean(id, title, note, fallback, metric);
        }
    }

    /** How often each value of a metric occurred: a bar per value. */
    public record Distribution(String id, String title, String note, String namespace, String metric) implements Panel {
        public Distribution {
            checkHeader(id, title);
            require(metric, "metric of panel '" + id + "'");
        }

        @Override
        public List<MetricUse> metrics() {
            return List.of(new MetricUse(namespace, metric, Set.of()));
        }

        @Override
        public Panel inNamespace(String fallback) {
            return namespace != null ? this : new Distribution(id, title, note, fallback, metric);
        }
    }

    /** Percentiles of a metric's values (nearest rank), e.g. {@code [50, 99]}. */
    public record Percentiles(
            String id, String title, String note, String namespace, String metric, List<Integer> percentiles)
            implements Panel {
        public Percentiles {
            checkHeader(id, title);
            require(metric, "metric of panel '" + id + "'");
            require(percentiles, "percentiles of panel '" + id + "'");
            if (percentiles.isEmpty() || percentiles.stream().anyMatch(p -> p == null || p < 1 || p > 100)) {
                throw new IllegalArgumentException(
                        "panel '" + id + "': percentiles must be 1..100, got " + percentiles);
            }
            percentiles = List.copyOf(percentiles);
        }

        @Override
        public List<MetricUse> metrics() {
            return List.of(new MetricUse(namespace, metric, Set.of()));
        }

        @Override
        public Panel inNamespace(String fallback) {
            return namespace != null ? this : new Percentiles(id, title, note, fallback, metric, percentiles);
        }
    }

    /** Sums, one line each: of a metric, or of a metric per value of its {@code groupBy} dimension. */
    public record Counts(String id, String title, String note, List<CountLine> lines) implements Panel {
        public Counts {
            checkHeader(id, title);
            lines = List.copyOf(require(lines, "lines"));
            if (lines.isEmpty()) {
                throw new IllegalArgumentException("panel '" + id + "': lines must name at least one metric");
            }
        }

        @Override
        public List<MetricUse> metrics() {
            return lines.stream().map(CountLine::use).toList();
        }

        @Override
        public Panel inNamespace(String namespace) {
            return new Counts(
                    id,
                    title,
                    note,
                    lines.stream().map(l -> l.inNamespace(namespace)).toList());
        }
    }

    /**
     * One line of a counts panel; {@code label} defaults to the metric's name, or to {@code {value}} with a
     * {@code groupBy}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CountLine(String namespace, String metric, String groupBy, String label) {
        public CountLine {
            require(metric, "metric");
            if (label == null) {
                label = groupBy == null ? metric : "{value}";
            }
            Matcher m = PLACEHOLDER.matcher(label);
            while (m.find()) {
                if (groupBy == null || !VALUE_PLACEHOLDER.matcher(m.group(1)).matches()) {
                    throw new IllegalArgumentException(
                            "label '" + label + "' of " + metric + ": only {value} or "
                                    + "{value:N} (the first N characters of the groupBy dimension's value), and only with a groupBy");
                }
            }
        }

        CountLine inNamespace(String fallback) {
            return namespace != null ? this : new CountLine(fallback, metric, groupBy, label);
        }

        MetricUse use() {
            return new MetricUse(namespace, metric, groupBy == null ? Set.of() : Set.of(groupBy));
        }
    }

    private static void checkHeader(String id, String title) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a panel's id must be lower-case letters, digits and dashes, got " + id);
        }
        require(title, "title of panel '" + id + "'");
    }

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        return value;
    }
}
