package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.local.metrics.DashboardPanels;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The local dashboard's panels (infra/local/dashboard.json, which `make run` gives the local runtime) against
 * the metrics the code emits ({@link Metric}): a renamed metric or dimension fails here instead of leaving
 * an empty chart.
 */
class LocalDashboardPanelsTest {

    private static final Map<String, Metric> METRICS =
            Arrays.stream(Metric.values()).collect(Collectors.toMap(Metric::metricName, Function.identity()));

    @Test
    void everyPanelReadsAMetricTheFunctionsEmitByDimensionsItCarries() {
        DashboardPanels panels =
                DashboardPanels.read(TestSupport.repositoryRoot().resolve("infra/local/dashboard.json"));

        assertFalse(panels.metricUses().isEmpty());
        for (DashboardPanels.MetricUse use : panels.metricUses()) {
            assertEquals(Metrics.NAMESPACE, use.namespace(), use.toString());
            Metric metric = METRICS.get(use.metric());
            assertNotNull(metric, use.metric() + " is no metric of " + METRICS.keySet());
            Set<String> carried =
                    metric.dimensions().stream().map(Metric.Dimension::key).collect(Collectors.toSet());
            assertTrue(
                    carried.containsAll(use.dimensions()),
                    use + " selects by a dimension " + metric + " does not carry: " + carried);
        }
    }

    @Test
    void theRunCommandGivesTheRuntimeThesePanels() throws Exception {
        String run = Files.readString(TestSupport.repositoryRoot().resolve("infra/local/run.sh"));

        assertTrue(run.contains("--dashboard \"$PASTEBIN_LOCAL_DIR/dashboard.json\""), "infra/local/run.sh");
    }
}
