package dev.pastebin.local;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CommandLineFlagsTest {

    @Test
    void flagsBecomeProperties() {
        var parsed = CommandLineFlags.parse(new String[]{"ReadPasteFunction", "--port", "3001", "--sweep-interval=60s",
                "--lazy", "event.json"});
        assertEquals(Map.of("pastebin.local.port", "3001", "pastebin.local.schedule-interval", "60s",
                "pastebin.local.eager", "false"), parsed.properties());
        assertEquals(List.of("ReadPasteFunction", "event.json"), parsed.positional());
    }

    @Test
    void unknownOrIncompleteFlagsAreClearErrors() {
        assertThrows(IllegalArgumentException.class, () -> CommandLineFlags.parse(new String[]{"--prot", "1"}));
        assertThrows(IllegalArgumentException.class, () -> CommandLineFlags.parse(new String[]{"--port"}));
    }
}
