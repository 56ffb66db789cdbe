package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.support.TestDelivery;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Binding of {@code pastebin.delivery.*} and {@code pastebin.delivery.queue.*}, and the checks of their values. */
class DeliveryPropertiesTest {

    private static ApplicationContext start(Map<String, Object> properties) {
        // Only these properties: no "test" environment, no environment variables, so no datasource either.
        return ApplicationContext.builder()
                .deduceEnvironment(false)
                .environmentPropertySource(false)
                .properties(properties)
                .start();
    }

    @Test
    void defaultsAreTheDesignedSchedule() {
        try (var context = start(Map.of())) {
            DeliveryProperties delivery = context.getBean(DeliveryProperties.class);
            assertEquals(6, delivery.maxAttempts());
            assertEquals(Duration.ofSeconds(1), delivery.baseDelay());
            assertEquals(2.0, delivery.multiplier());
            assertEquals(Duration.ofMinutes(5), delivery.maxDelay());
            assertEquals(Duration.ZERO, delivery.minDelay());
            assertEquals(JitterStrategy.PLUS_MINUS, delivery.jitter());
            assertEquals(Duration.ofMillis(200), delivery.plusMinusJitter());
            assertEquals(Duration.ofSeconds(4), delivery.baseDelayFor(ErrorClass.THROTTLING));
            assertEquals(Duration.ofSeconds(1), delivery.baseDelayFor(ErrorClass.SERVER_ERROR));
            assertEquals(0, delivery.giveUpAfterAttempts());
            assertFalse(delivery.givesUp(), "by default a transient failure never fails a paste");
            assertEquals(Duration.ofSeconds(15), delivery.holdAtLeast());
            assertEquals(Duration.ofSeconds(5), delivery.holdJitter());
            assertEquals(Duration.ofMinutes(5), delivery.maxHold());
            assertEquals(Duration.ofHours(24), delivery.holdLimit());
            assertTrue(delivery.releaseEnabled());
            assertEquals(1000, delivery.releaseRate(), "faster than the fleet drains: the release never paces it");
            assertEquals(TestDelivery.defaults().build(), delivery, "the tests' defaults are the binding's");
            assertEquals(
                    320,
                    context.getBean(DeliveryQueueProperties.class).maxReceiveCount(),
                    "room for a day of the breaker's holds (ReceiveBudget)");
        }
    }

    @Test
    void everythingIsConfigurableInTheFormsEnvironmentVariablesProduce() {
        try (var context = start(Map.ofEntries(
                Map.entry("pastebin.delivery.max-attempts", "4"),
                Map.entry("pastebin.delivery.base-delay", "500ms"),
                Map.entry("pastebin.delivery.multiplier", "3"),
                Map.entry("pastebin.delivery.max-delay", "20s"),
                Map.entry("pastebin.delivery.min-delay", "250ms"),
                Map.entry("pastebin.delivery.jitter", "decorrelated"),
                Map.entry("pastebin.delivery.plus-minus-jitter", "100ms"),
                Map.entry("pastebin.delivery.class-base-delays.throttling", "7s"),
                Map.entry("pastebin.delivery.class-base-delays.database", "2s"),
                Map.entry("pastebin.delivery.give-up-after-attempts", "4"),
                Map.entry("pastebin.delivery.hold-at-least", "2s"),
                Map.entry("pastebin.delivery.hold-jitter", "1s"),
                Map.entry("pastebin.delivery.max-hold", "8s"),
                Map.entry("pastebin.delivery.hold-limit", "3m"),
                Map.entry("pastebin.delivery.release-enabled", "false"),
                Map.entry("pastebin.delivery.release-rate", "400"),
                Map.entry("pastebin.delivery.queue.max-receive-count", "5")))) {
            DeliveryProperties delivery = context.getBean(DeliveryProperties.class);
            assertEquals(4, delivery.maxAttempts());
            assertEquals(Duration.ofMillis(500), delivery.baseDelay());
            assertEquals(3.0, delivery.multiplier());
            assertEquals(Duration.ofSeconds(20), delivery.maxDelay());
            assertEquals(Duration.ofMillis(250), delivery.minDelay());
            assertEquals(JitterStrategy.DECORRELATED, delivery.jitter());
            assertEquals(Duration.ofMillis(100), delivery.plusMinusJitter());
            assertEquals(Duration.ofSeconds(7), delivery.baseDelayFor(ErrorClass.THROTTLING));
            assertEquals(Duration.ofSeconds(2), delivery.baseDelayFor(ErrorClass.DATABASE));
            assertEquals(Duration.ofMillis(500), delivery.baseDelayFor(ErrorClass.TIMEOUT));
            assertEquals(4, delivery.giveUpAfterAttempts());
            assertTrue(delivery.givesUp());
            assertEquals(Duration.ofSeconds(2), delivery.holdAtLeast());
            assertEquals(Duration.ofSeconds(1), delivery.holdJitter());
            assertEquals(Duration.ofSeconds(8), delivery.maxHold());
            assertEquals(Duration.ofMinutes(3), delivery.holdLimit());
            assertFalse(delivery.releaseEnabled());
            assertEquals(400, delivery.releaseRate());
            assertEquals(5, context.getBean(DeliveryQueueProperties.class).maxReceiveCount());
        }
    }

    @Test
    void inconsistentDelaysFailStartup() {
        var e = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.min-delay", "10s", "pastebin.delivery.max-delay", "5s"))
                        .close());
        assertTrue(messages(e).contains("min-delay"), messages(e));
        var tooLong = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.max-delay", "13h")).close());
        assertTrue(messages(tooLong).contains("12 hours"), messages(tooLong));
        var permanent = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.class-base-delays.access-denied", "5s"))
                        .close());
        assertTrue(messages(permanent).contains("never retried"), messages(permanent));
    }

    @Test
    void inconsistentHoldsFailStartup() {
        var shorter = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.hold-at-least", "1m", "pastebin.delivery.max-hold", "30s"))
                        .close());
        assertTrue(
                messages(shorter)
                        .contains("pastebin.delivery.max-hold (PT30S) must not be shorter than "
                                + "pastebin.delivery.hold-at-least (PT1M)"),
                messages(shorter));
        var tooLong = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.max-hold", "12h")).close());
        assertTrue(messages(tooLong).contains("max-hold + hold-jitter"), messages(tooLong));
        assertTrue(messages(tooLong).contains("12 hours"), messages(tooLong));
        var none = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.hold-at-least", "0s")).close());
        assertTrue(messages(none).contains("hold-at-least must be positive"), messages(none));
        var backlogShorter = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.max-hold", "20m")).close());
        assertTrue(
                messages(backlogShorter)
                        .contains("pastebin.delivery.max-backlog-hold (PT15M) must not be shorter than "
                                + "pastebin.delivery.max-hold (PT20M)"),
                messages(backlogShorter));
        var backlogTooLong = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.delivery.max-backlog-hold", "12h")).close());
        assertTrue(messages(backlogTooLong).contains("max-backlog-hold + hold-jitter"), messages(backlogTooLong));
    }

    private static String messages(Throwable e) {
        var text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }
}
