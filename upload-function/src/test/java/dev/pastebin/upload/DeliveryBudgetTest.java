package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.HoldSchedule;
import dev.pastebin.core.retry.JitterStrategy;
import dev.pastebin.core.retry.RetryProperties;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.exceptions.ConfigurationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The start-up check that the queue's maxReceiveCount lets a paste be held for the whole hold limit. */
class DeliveryBudgetTest {

    private static final BreakerProperties DEFAULTS = new BreakerProperties(
            true,
            "s3",
            Duration.ofSeconds(60),
            10,
            0.9,
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30),
            Duration.ofSeconds(15),
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            Duration.ofHours(24));

    private static RetryProperties retry(int maxReceiveCount) {
        return new RetryProperties(
                6,
                Duration.ofSeconds(1),
                2.0,
                Duration.ofSeconds(300),
                Duration.ZERO,
                JitterStrategy.PLUS_MINUS,
                Duration.ofMillis(200),
                null,
                maxReceiveCount,
                0);
    }

    @Test
    void seventyFiveReceivesCannotHoldAPasteThroughADayOfOutageAndTheFunctionRefusesToStart() {
        var refused = assertThrows(
                ConfigurationException.class, () -> new DeliveryBudget(retry(75), new HoldSchedule(DEFAULTS)));
        assertTrue(refused.getMessage().contains("queue-max-receive-count (75)"), refused.getMessage());
        assertTrue(
                refused.getMessage().contains("must be at least 304: 6 S3 attempts + 296 deliveries held"),
                refused.getMessage());
    }

    @Test
    void theDefaultReceiveCountCoversSixAttemptsADayOfHoldingAndTwoSpare() {
        assertDoesNotThrow(() -> new DeliveryBudget(retry(304), new HoldSchedule(DEFAULTS)));
        assertThrows(ConfigurationException.class, () -> new DeliveryBudget(retry(303), new HoldSchedule(DEFAULTS)));
    }

    /** The function's own defaults (RetryProperties, BreakerProperties) pass its start-up check. */
    @Test
    void theFunctionStartsWithItsDefaults() {
        try (ApplicationContext context =
                ApplicationContext.builder().deduceEnvironment(false).build().start()) {
            assertEquals(DEFAULTS, context.getBean(BreakerProperties.class));
            assertEquals(320, context.getBean(RetryProperties.class).queueMaxReceiveCount());
            assertNotNull(context.getBean(DeliveryBudget.class));
        }
    }

    @Test
    void aBreakerThatIsOffNeedsOnlyTheAttempts() {
        var off = new BreakerProperties(
                false,
                "s3",
                Duration.ofSeconds(60),
                10,
                0.9,
                Duration.ofSeconds(10),
                Duration.ofMinutes(2),
                Duration.ofSeconds(30),
                Duration.ofSeconds(15),
                Duration.ofSeconds(5),
                Duration.ofMinutes(5),
                Duration.ofHours(24));
        assertDoesNotThrow(() -> new DeliveryBudget(retry(7), new HoldSchedule(off)));
    }
}
