package dev.pastebin.core.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** A key over its daily limit is told to come back at the next UTC midnight: Retry-After in whole seconds, never 0. */
class UtcDayTest {

    private static Instant at(String instant) {
        return Clock.fixed(Instant.parse(instant), ZoneOffset.UTC).instant();
    }

    @Test
    void retryAfterIsTheSecondsUntilTheNextUtcMidnightRoundedUp() {
        assertEquals(86_400, UtcDay.secondsUntilNext(at("2026-12-06T00:00:00Z")), "at midnight: a whole day");
        assertEquals(3_600, UtcDay.secondsUntilNext(at("2026-12-06T23:00:00Z")));
        assertEquals(1, UtcDay.secondsUntilNext(at("2026-12-06T23:59:59.999Z")), "never 0");
        assertEquals(2, UtcDay.secondsUntilNext(at("2026-12-06T23:59:58.5Z")), "rounded up");
        assertEquals(86_400, UtcDay.secondsUntilNext(at("2026-12-06T00:00:00.001Z")), "rounded up");
        assertEquals(86_399, UtcDay.secondsUntilNext(at("2026-12-06T00:00:01Z")));
    }

    @Test
    void theDayIsUtcWhateverTheClocksZone() {
        Clock tokyo = Clock.fixed(Instant.parse("2026-12-06T20:00:00Z"), ZoneId.of("Asia/Tokyo"));

        assertEquals(LocalDate.of(2026, 12, 6), UtcDay.of(tokyo.instant()), "already the 7th in Tokyo");
        assertEquals(14_400, UtcDay.secondsUntilNext(tokyo.instant()));
    }

    @Test
    void aKeyIsPbAnd32RandomBytesAndOnlyItsShapeIsAccepted() {
        ApiKeyTokens.Issued issued = new ApiKeyTokens().issue();

        assertEquals(46, issued.key().length());
        assertTrue(ApiKeyTokens.isWellFormed(issued.key()));
        assertEquals(ApiKeyTokens.hashOf(issued.key()), issued.sha256());
        assertFalse(ApiKeyTokens.isWellFormed("pb_short"));
        assertFalse(ApiKeyTokens.isWellFormed(issued.key().substring(3)));
    }
}
