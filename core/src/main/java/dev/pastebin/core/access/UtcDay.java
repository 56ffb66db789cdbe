package dev.pastebin.core.access;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * The day an API key's daily limits count in: the UTC calendar day, the same for every function and client wherever
 * it runs. A key over its limit may create again at the next UTC midnight, which {@code Retry-After} tells.
 */
public final class UtcDay {

    private UtcDay() {}

    public static LocalDate of(Instant now) {
        return LocalDate.ofInstant(now, ZoneOffset.UTC);
    }

    /** Whole seconds from {@code now} until the next UTC midnight, rounded up: 1 to 86,400, never 0. */
    public static long secondsUntilNext(Instant now) {
        Instant next = of(now).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        Duration left = Duration.between(now, next);
        return left.getSeconds() + (left.getNano() > 0 ? 1 : 0);
    }
}
