package dev.pastebin.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RunNamesTest {

    @Test
    void everyNameCarriesThePrefixAndTheRunTheDatabaseWithUnderscores() {
        RunNames names = RunNames.of("chaos", "0612-1200");

        assertEquals(
                new RunNames(
                        "chaos_0612_1200",
                        "chaos-0612-1200-uploads",
                        "chaos-0612-1200-uploads-dlq",
                        "chaos-0612-1200-pastes"),
                names);
    }

    @Test
    void theRunCommandGetsTheNamesThroughTheVariablesOfItsLibrary() {
        assertEquals(
                Map.of(
                        "PASTEBIN_DB_NAME", "herd_abc",
                        "PASTEBIN_UPLOAD_QUEUE", "herd-abc-uploads",
                        "PASTEBIN_UPLOAD_DLQ", "herd-abc-uploads-dlq",
                        "PASTEBIN_STORAGE_BUCKET", "herd-abc-pastes"),
                RunNames.of("herd", "abc").environment());
    }
}
