package dev.pastebin.local.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardPanelsTest {

    @TempDir
    Path dir;

    @Test
    void thePageGetsEveryReferenceInItsNamespaceAndEveryLabelAsData() throws Exception {
        DashboardPanels panels = DashboardPanels.read(Path.of("target/test-classes/fixture/dashboard.json"));

        JsonNode served = Json.MAPPER.readTree(panels.toJson());

        JsonNode rate = served.get("panels").get(0);
        assertEquals("ratio", rate.get("kind").asText());
        assertEquals("Shop", rate.get("numerator").get("namespace").asText());
        assertEquals(
                "[\"transient\",\"slow\"]",
                rate.get("numerator").get("where").get("Outcome").toString());
        assertEquals("Shop", rate.get("denominator").get("namespace").asText());
        JsonNode janitor = served.get("panels").get(7).get("lines").get(0);
        assertEquals("Cleaned", janitor.get("label").asText(), "a line without a label is labelled with its metric");
        assertEquals(
                "{value:1}xx",
                served.get("panels").get(5).get("lines").get(0).get("label").asText());
        assertTrue(
                panels.metricUses().contains(new DashboardPanels.MetricUse("Shop", "Calls", Set.of("Code"))),
                panels.metricUses().toString());
        assertTrue(panels.metricUses().contains(new DashboardPanels.MetricUse("Shop", "Orders", Set.of("Outcome"))));
    }

    @Test
    void withoutAFileThereAreNoPanels() throws Exception {
        assertEquals("{\"panels\":[]}", new String(DashboardPanels.NONE.toJson(), StandardCharsets.UTF_8));
    }

    @Test
    void aBrokenFileIsRefusedWithItsNameAndTheFault() throws Exception {
        assertRefused("{\"panels\": [{\"id\": \"a\", \"kind\": \"pie\", \"title\": \"A\", \"metric\": \"M\"}]}", "pie");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"mean\", \"title\": \"A\", "
                        + "\"metric\": \"M\", \"colour\": \"red\"}]}",
                "colour");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"mean\", \"title\": \"A\"}]}",
                "metric of panel 'a' is missing");
        assertRefused(
                "{\"panels\": [{\"id\": \"a\", \"kind\": \"mean\", \"title\": \"A\", \"metric\": \"M\"}]}",
                "metric M has no namespace");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"counts\", \"title\": \"A\", "
                        + "\"lines\": [{\"metric\": \"M\", \"label\": \"to {value}\"}]}]}",
                "only with a groupBy");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"counts\", \"title\": \"A\", "
                        + "\"lines\": [{\"metric\": \"M\", \"groupBy\": \"D\", \"label\": \"{v}\"}]}]}",
                "only {value}");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"percentiles\", \"title\": \"A\", "
                        + "\"metric\": \"M\", \"percentiles\": [0]}]}",
                "percentiles must be 1..100");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"mean\", \"title\": \"A\", "
                        + "\"metric\": \"M\"}, {\"id\": \"a\", \"kind\": \"mean\", \"title\": \"B\", \"metric\": \"M\"}]}",
                "two panels have the id 'a'");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"ratio\", \"title\": \"A\", "
                        + "\"numerator\": {\"metric\": \"M\", \"where\": {\"D\": []}}, \"denominator\": {\"metric\": \"M\"}}]}",
                "where D of M needs at least one value");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"mean\", \"title\": \"A\", "
                        + "\"metric\": \"M\", \"metric\": \"M2\"}]}",
                "Duplicate field 'metric'");
        assertRefused(
                "{\"namespace\": \"N\", \"panels\": [{\"id\": \"a\", \"kind\": \"percentiles\", \"title\": \"A\", "
                        + "\"metric\": \"M\", \"percentiles\": [50, null]}]}",
                "percentiles must be 1..100, got [50, null]");
        assertRefused("{\"panels\": ", "Unexpected end-of-input");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nothing.json");
        var e = assertThrows(IllegalArgumentException.class, () -> DashboardPanels.read(missing));
        assertTrue(e.getMessage().startsWith("cannot read the dashboard file " + missing), e.getMessage());
    }

    private void assertRefused(String json, String expected) throws Exception {
        Path file = Files.writeString(dir.resolve("dashboard.json"), json);
        var e = assertThrows(IllegalArgumentException.class, () -> DashboardPanels.read(file));
        assertTrue(e.getMessage().startsWith("the dashboard file " + file + " is not valid: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
