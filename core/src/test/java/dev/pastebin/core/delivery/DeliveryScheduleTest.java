package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.TestDelivery;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What the 202 asks: the soonest a pending paste's upload can next finish. */
class DeliveryScheduleTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    private final DeliverySchedule schedule =
            new DeliverySchedule(TestDelivery.defaults().build(), new SplittableRandom(1));

    private static Paste paste(int uploadAttempts, Instant updatedAt, @Nullable Instant firstHeldAt) {
        return new Paste(
                "aB3xYz9Q",
                null,
                "0".repeat(64),
                60,
                null,
                PasteStatus.IN_PROGRESS,
                null,
                uploadAttempts,
                NOW.minus(Duration.ofHours(2)),
                updatedAt,
                null,
                null,
                false,
                firstHeldAt,
                null,
                null,
                null);
    }

    @Test
    void withFastAttemptsLeftOnlyTheBreakersProbeHoldsAPasteBack() {
        Instant probe = NOW.plusSeconds(40);
        Paste fast = paste(5, NOW, NOW.minus(Duration.ofHours(1)));
        assertNull(schedule.uploadNotBefore(fast, null));
        assertEquals(probe, schedule.uploadNotBefore(fast, probe));
        assertNull(schedule.uploadNotBefore(paste(0, NOW, null), null), "no attempt made yet");
    }

    @Test
    void aSlowPastesNextAttemptIsItsShortestWaitAfterItsLastOne() {
        // the 6th attempt failed an hour after the first wait began: every wait is max-hold (5 min) now
        Paste slow = paste(6, NOW, NOW.minus(Duration.ofHours(1)));
        assertEquals(NOW.plus(Duration.ofMinutes(5)), schedule.uploadNotBefore(slow, null));
        assertEquals(
                NOW.plus(Duration.ofMinutes(5)),
                schedule.uploadNotBefore(slow, NOW.plusSeconds(40)),
                "the later of the two");
        assertEquals(NOW.plus(Duration.ofMinutes(9)), schedule.uploadNotBefore(slow, NOW.plus(Duration.ofMinutes(9))));
        // just slow: its first wait counts from now, at least hold-at-least
        assertEquals(NOW.plusSeconds(15), schedule.uploadNotBefore(paste(6, NOW, NOW), null));
        assertNull(schedule.uploadNotBefore(paste(6, NOW, null), null), "its first wait not noted");
    }
}
