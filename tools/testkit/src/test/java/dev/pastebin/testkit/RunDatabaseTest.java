package dev.pastebin.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RunDatabaseTest {

    @Test
    void theUrlNamesTheServerAndTheDatabase() {
        RunDatabase database = new RunDatabase("127.0.0.1", 5433, "pastebin", "secret", "chaos_0612");

        assertEquals("jdbc:postgresql://127.0.0.1:5433/chaos_0612", database.url());
        assertEquals("chaos_0612", database.name());
    }

    @Test
    void parametersGoIntoTheUrl() {
        RunDatabase database = new RunDatabase("db", 5432, "u", "p", "herd_1").withParameters("connectTimeout=5");

        assertEquals("jdbc:postgresql://db:5432/herd_1?connectTimeout=5", database.url());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Chaos_1", "herd-1", "x; DROP DATABASE pastebin", ""})
    void onlyAPlainNameIsAccepted(String name) {
        assertThrows(IllegalArgumentException.class, () -> new RunDatabase("127.0.0.1", 5432, "u", "p", name));
    }
}
