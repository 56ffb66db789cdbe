package dev.pastebin.core.lambda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    void allowsMoreWorkOnlyWhileMoreThanTheMarginIsLeft() {
        assertTrue(new Deadline(() -> 15_001, Duration.ofSeconds(15)).allowsMoreWork());
        assertFalse(new Deadline(() -> 15_000, Duration.ofSeconds(15)).allowsMoreWork());
        assertFalse(new Deadline(() -> 100, Duration.ofSeconds(15)).allowsMoreWork());
    }

    @Test
    void withoutAnInvocationThereIsNoDeadline() {
        assertTrue(Deadline.none().allowsMoreWork());
    }
}
