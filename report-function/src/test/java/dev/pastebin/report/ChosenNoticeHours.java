package dev.pastebin.report;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Instant;

/**
 * The hour the test chose, when {@code report-it.notice-hours=chosen}: each test counts its notifications in an
 * hour of its own, and moves to the next hour without waiting for it.
 */
@Singleton
@Replaces(NoticeHours.class)
@Requires(property = "report-it.notice-hours", value = "chosen")
class ChosenNoticeHours extends NoticeHours {

    private volatile Instant hour = Instant.parse("3000-01-01T00:00:00Z");

    @Override
    Instant current() {
        return hour;
    }

    void set(Instant hour) {
        this.hour = hour;
    }
}
