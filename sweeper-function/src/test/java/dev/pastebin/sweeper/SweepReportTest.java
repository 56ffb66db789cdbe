package dev.pastebin.sweeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmfSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SweepReportTest {

    @Test
    void eachCountIsOneMetricOnOneValidEmfLineZerosIncluded() {
        CapturedMetrics emitted = new CapturedMetrics();
        Metrics metrics = emitted.metrics("sweeper");

        new SweepReport(new DeadLetterReport(2, 3, 0, false), 5, 6, 7, 4, 1, 9, 8, true, true, 2, 3, false)
                .record(metrics);
        metrics.flush();

        List<Map<String, Object>> lines = new EmfSpec(Set.of()).validate(emitted.lines(), Set.of());
        assertEquals(1, lines.size(), emitted.lines().toString());
        Map<String, String> sweeper = Map.of("Service", "sweeper");
        assertEquals(List.of(5.0), EmfSpec.values(lines, Metric.DELETED, sweeper));
        assertEquals(List.of(6.0), EmfSpec.values(lines, Metric.EXPIRED_DELETED, sweeper));
        assertEquals(List.of(7.0), EmfSpec.values(lines, Metric.IDEMPOTENCY_KEYS_DELETED, sweeper));
        assertEquals(List.of(8.0), EmfSpec.values(lines, Metric.ORPHAN_OBJECTS_REMOVED, sweeper));
        assertEquals(List.of(1.0), EmfSpec.values(lines, Metric.ORPHAN_GUARD_STOPS, sweeper));
        assertEquals(List.of(1.0), EmfSpec.values(lines, Metric.DATABASE_RESTORED, sweeper));
        assertEquals(List.of(4.0), EmfSpec.values(lines, Metric.OBJECTS_REMOVED, sweeper));
        assertEquals(List.of(1.0), EmfSpec.values(lines, Metric.STUCK_MARKED_FAILED, sweeper));
        assertEquals(List.of(2.0), EmfSpec.values(lines, Metric.DEAD_LETTERS_REQUEUED, sweeper));
        assertEquals(List.of(3.0), EmfSpec.values(lines, Metric.DEAD_LETTERS_DELETED, sweeper));
        assertEquals(List.of(0.0), EmfSpec.values(lines, Metric.DEAD_LETTERS_KEPT, sweeper));
        assertEquals(List.of(2.0), EmfSpec.values(lines, Metric.ABUSE_REPORTS_DELETED, sweeper));
    }

    /** docs/operating.md's "Configuration" names every field of the report a sweep returns, and no other. */
    @Test
    void theConfigurationNamesEveryFieldOfTheReport() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "operating.md"));
        int start = doc.indexOf("Each sweep logs and returns its report:");
        String paragraph = doc.substring(start, doc.indexOf("\n\n", start));
        Set<String> documented = new TreeSet<>();
        Matcher span = Pattern.compile("`([a-zA-Z]+)`").matcher(paragraph);
        while (span.find()) {
            documented.add(span.group(1));
        }
        Set<String> fields = new TreeSet<>();
        Stream.of(SweepReport.class, DeadLetterReport.class)
                .flatMap(type -> Arrays.stream(type.getRecordComponents()))
                .forEach(component -> fields.add(component.getName()));
        assertEquals(fields, documented, paragraph);
    }
}
