package dev.pastebin.report;

import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The hour a report's notification counts against (the hourly budget and the cap per reporter): the current UTC
 * hour. The ITs replace it to give each test an hour of its own, and to move to the next hour without waiting.
 */
@Singleton
class NoticeHours {

    /** The start of the current hour. */
    Instant current() {
        return Instant.now().truncatedTo(ChronoUnit.HOURS);
    }
}
