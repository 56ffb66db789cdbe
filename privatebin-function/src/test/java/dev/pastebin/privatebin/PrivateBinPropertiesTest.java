package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The wait for a paste still being stored cannot become a busy loop on the database (review L14). */
class PrivateBinPropertiesTest {

    @Test
    void aPollIntervalBelowTenMillisecondsIsRefusedAtStart() {
        for (Duration poll : new Duration[] {Duration.ZERO, Duration.ofMillis(9), Duration.ofMillis(-1)}) {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class, () -> new PrivateBinProperties(Duration.ofSeconds(5), poll));
            assertTrue(refused.getMessage().contains("pastebin.privatebin.pending-poll"), refused.getMessage());
        }
        assertEquals(
                Duration.ofMillis(10),
                new PrivateBinProperties(Duration.ofSeconds(5), Duration.ofMillis(10)).pendingPoll());
    }

    @Test
    void aNegativeWaitIsRefusedAtStart() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new PrivateBinProperties(Duration.ofSeconds(-1), Duration.ofMillis(250)));
    }
}
