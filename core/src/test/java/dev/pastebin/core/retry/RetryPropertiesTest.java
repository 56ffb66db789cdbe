package dev.pastebin.core.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.ErrorClass;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Binding of {@code pastebin.upload.retry.*} and the startup check of the queue's maxReceiveCount. */
class RetryPropertiesTest {

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
            RetryProperties retry = context.getBean(RetryProperties.class);
            assertEquals(6, retry.maxAttempts());
            assertEquals(Duration.ofSeconds(1), retry.baseDelay());
            assertEquals(2.0, retry.multiplier());
            assertEquals(Duration.ofSeconds(300), retry.maxDelay());
            assertEquals(Duration.ZERO, retry.minDelay());
            assertEquals(JitterStrategy.PLUS_MINUS, retry.jitter());
            assertEquals(Duration.ofMillis(200), retry.plusMinusJitter());
            assertEquals(320, retry.queueMaxReceiveCount(), "room for a day of the breaker's holds (DeliveryBudget)");
            assertEquals(Duration.ofSeconds(4), retry.baseDelayFor(ErrorClass.THROTTLING));
            assertEquals(Duration.ofSeconds(1), retry.baseDelayFor(ErrorClass.SERVER_ERROR));
            assertEquals(0, retry.giveUpAfterAttempts());
            assertFalse(retry.givesUp(), "by default a transient failure never fails a paste");
        }
    }

    @Test
    void everythingIsConfigurableInTheFormsEnvironmentVariablesProduce() {
        try (var context = start(Map.ofEntries(
                Map.entry("pastebin.upload.retry.max-attempts", "4"),
                Map.entry("pastebin.upload.retry.base-delay", "500ms"),
                Map.entry("pastebin.upload.retry.multiplier", "3"),
                Map.entry("pastebin.upload.retry.max-delay", "20s"),
                Map.entry("pastebin.upload.retry.min-delay", "250ms"),
                Map.entry("pastebin.upload.retry.jitter", "decorrelated"),
                Map.entry("pastebin.upload.retry.plus-minus-jitter", "100ms"),
                Map.entry("pastebin.upload.retry.class-base-delays.throttling", "7s"),
                Map.entry("pastebin.upload.retry.class-base-delays.database", "2s"),
                Map.entry("pastebin.upload.retry.queue-max-receive-count", "5"),
                Map.entry("pastebin.upload.retry.give-up-after-attempts", "4")))) {
            RetryProperties retry = context.getBean(RetryProperties.class);
            assertEquals(4, retry.maxAttempts());
            assertEquals(Duration.ofMillis(500), retry.baseDelay());
            assertEquals(3.0, retry.multiplier());
            assertEquals(Duration.ofSeconds(20), retry.maxDelay());
            assertEquals(Duration.ofMillis(250), retry.minDelay());
            assertEquals(JitterStrategy.DECORRELATED, retry.jitter());
            assertEquals(Duration.ofMillis(100), retry.plusMinusJitter());
            assertEquals(Duration.ofSeconds(7), retry.baseDelayFor(ErrorClass.THROTTLING));
            assertEquals(Duration.ofSeconds(2), retry.baseDelayFor(ErrorClass.DATABASE));
            assertEquals(Duration.ofMillis(500), retry.baseDelayFor(ErrorClass.TIMEOUT));
            assertEquals(5, retry.queueMaxReceiveCount());
            assertEquals(4, retry.giveUpAfterAttempts());
            assertTrue(retry.givesUp());
        }
    }

    @Test
    void aQueueThatWouldDeadLetterBeforeTheLastAttemptFailsStartup() {
        var e = assertThrows(
                RuntimeException.class,
                () -> start(Map.of(
                                "pastebin.upload.retry.max-attempts", "6",
                                "pastebin.upload.retry.queue-max-receive-count", "6"))
                        .close());
        String message = messages(e);
        assertTrue(
                message.contains("pastebin.upload.retry.queue-max-receive-count (6) must be greater than "
                        + "pastebin.upload.retry.max-attempts (6)"),
                message);
    }

    @Test
    void aQueueThatWouldDeadLetterBeforeThePasteIsGivenUpFailsStartup() {
        var e = assertThrows(
                RuntimeException.class,
                () -> start(Map.of(
                                "pastebin.upload.retry.give-up-after-attempts", "10",
                                "pastebin.upload.retry.queue-max-receive-count", "10"))
                        .close());
        String message = messages(e);
        assertTrue(
                message.contains("pastebin.upload.retry.give-up-after-attempts (10) must be less than "
                        + "pastebin.upload.retry.queue-max-receive-count (10)"),
                message);
    }

    @Test
    void inconsistentDelaysFailStartup() {
        var e = assertThrows(
                RuntimeException.class,
                () -> start(Map.of(
                                "pastebin.upload.retry.min-delay", "10s",
                                "pastebin.upload.retry.max-delay", "5s"))
                        .close());
        assertTrue(messages(e).contains("min-delay"), messages(e));
        var tooLong = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.upload.retry.max-delay", "13h")).close());
        assertTrue(messages(tooLong).contains("12 hours"), messages(tooLong));
        var permanent = assertThrows(
                RuntimeException.class,
                () -> start(Map.of("pastebin.upload.retry.class-base-delays.access-denied", "5s"))
                        .close());
        assertTrue(messages(permanent).contains("never retried"), messages(permanent));
    }

    private static String messages(Throwable e) {
        var text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }
}
