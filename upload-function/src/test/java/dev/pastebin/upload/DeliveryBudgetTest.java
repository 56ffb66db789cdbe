package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.DeliveryQueueProperties;
import dev.pastebin.core.support.TestDelivery;
import io.micronaut.context.ApplicationContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The worker's start-up check that the queue's maxReceiveCount lets a paste be held for the whole hold limit
 * (core's ReceiveBudgetTest has the arithmetic).
 */
class DeliveryBudgetTest {

    /** The function's own defaults (DeliveryProperties, DeliveryQueueProperties, BreakerProperties) pass its start-up check. */
    @Test
    void theFunctionStartsWithItsDefaults() {
        try (ApplicationContext context =
                ApplicationContext.builder().deduceEnvironment(false).build().start()) {
            assertTrue(context.getBean(BreakerProperties.class).enabled());
            assertEquals(TestDelivery.defaults().build(), context.getBean(DeliveryProperties.class));
            assertEquals(320, context.getBean(DeliveryQueueProperties.class).maxReceiveCount());
            assertNotNull(context.getBean(DeliveryBudget.class));
        }
    }

    @Test
    void seventyFiveReceivesCannotHoldAPasteThroughADayOfOutageAndTheFunctionRefusesToStart() {
        var refused = assertThrows(
                RuntimeException.class,
                () -> ApplicationContext.builder()
                        .deduceEnvironment(false)
                        .properties(Map.of("pastebin.delivery.queue.max-receive-count", "75"))
                        .start()
                        .close());
        var messages = new StringBuilder();
        for (Throwable t = refused; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("max-receive-count (75) must be at least 304"), messages.toString());
    }
}
