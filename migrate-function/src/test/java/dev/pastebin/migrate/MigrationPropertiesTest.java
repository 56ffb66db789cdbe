package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigrationPropertiesTest {

    @Test
    void theMarginIsThirtySecondsUnlessSet() {
        try (var context = ApplicationContext.run()) {
            assertEquals(
                    Duration.ofSeconds(30),
                    context.getBean(MigrationProperties.class).deadlineMargin());
        }
        try (var context = ApplicationContext.run(Map.of("pastebin.migration.deadline-margin", "45s"))) {
            assertEquals(
                    Duration.ofSeconds(45),
                    context.getBean(MigrationProperties.class).deadlineMargin());
        }
    }

    /** A margin that is not a duration must not silently become the default: the start fails, naming it. */
    @Test
    void anUnparsableMarginFailsTheStart() {
        try (var context = ApplicationContext.run(Map.of("pastebin.migration.deadline-margin", "soon"))) {
            var failure = assertThrows(RuntimeException.class, () -> context.getBean(MigrationProperties.class));
            assertTrue(Reasons.describe(failure).contains("deadlineMargin"), Reasons.describe(failure));
        }
    }
}
