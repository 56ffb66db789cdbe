package dev.pastebin.edgeacl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineAndReasonsTest {

    @Test
    void theWaitIsTheRemainingTimeLessTheMargin() {
        assertEquals(Duration.ofSeconds(870), Deadline.waitBudget(Duration.ofSeconds(900), Duration.ofSeconds(30)));
        assertEquals(Duration.ofMillis(1), Deadline.waitBudget(Duration.ofMillis(30_001), Duration.ofSeconds(30)));
    }

    @Test
    void noWaitIsLeftWhenTheMarginTakesAllTheRemainingTime() {
        assertEquals(Duration.ZERO, Deadline.waitBudget(Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertEquals(Duration.ZERO, Deadline.waitBudget(Duration.ofSeconds(10), Duration.ofSeconds(30)));
    }

    @Test
    void aReasonIsOneLineOfAtMostTheLimit() {
        assertEquals("a b c", Reasons.shorten("  a\n  b\t\tc \n"));
        String longReason = Reasons.shorten("x".repeat(5000));
        assertEquals(Reasons.MAX_LENGTH, longReason.length());
        assertTrue(longReason.endsWith("..."), longReason);
        assertEquals("x".repeat(Reasons.MAX_LENGTH), Reasons.shorten("x".repeat(Reasons.MAX_LENGTH)));
    }

    @Test
    void anAnswerAlwaysHasSomeReason() {
        assertEquals("no reason given", Reasons.shorten(null));
        assertEquals("no reason given", Reasons.shorten(" \n "));
    }

    @Test
    void anExceptionsReasonNamesItsTypeMessageAndCause() {
        assertEquals(
                "UncheckedIOException: cannot read the template /x (no such file)",
                Reasons.of(new UncheckedIOException("cannot read the template /x", new IOException("no such file"))));
        assertEquals("NullPointerException", Reasons.of(new NullPointerException()));
    }
}
