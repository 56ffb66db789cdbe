package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.TestDelivery;
import io.micronaut.context.exceptions.ConfigurationException;
import org.junit.jupiter.api.Test;

/** The check that the queue's maxReceiveCount lets a paste make its attempts and be held for the whole hold limit. */
class ReceiveBudgetTest {

    private static ReceiveBudget budget(DeliveryProperties delivery, int maxReceiveCount, boolean breakerOn) {
        return new ReceiveBudget(delivery, new DeliveryQueueProperties(maxReceiveCount), breakerOn);
    }

    private static ReceiveBudget budget(int maxReceiveCount) {
        return budget(TestDelivery.defaults().build(), maxReceiveCount, true);
    }

    @Test
    void seventyFiveReceivesCannotHoldAPasteThroughADayOfOutage() {
        var refused =
                assertThrows(ConfigurationException.class, () -> budget(75).check());
        assertTrue(refused.getMessage().contains("max-receive-count (75)"), refused.getMessage());
        assertTrue(
                refused.getMessage().contains("must be at least 304: 6 S3 attempts + 296 deliveries held"),
                refused.getMessage());
    }

    @Test
    void theDefaultReceiveCountCoversSixAttemptsADayOfHoldingAndTwoSpare() {
        assertEquals(296, budget(320).heldDeliveriesWithinLimit());
        assertEquals(304, budget(320).needed());
        assertDoesNotThrow(() -> budget(320).check());
        assertDoesNotThrow(() -> budget(304).check());
        assertThrows(ConfigurationException.class, () -> budget(303).check());
    }

    @Test
    void aBreakerThatIsOffNeedsOnlyTheAttempts() {
        assertDoesNotThrow(
                () -> budget(TestDelivery.defaults().build(), 7, false).check());
    }

    @Test
    void aQueueThatWouldDeadLetterBeforeTheLastAttemptIsRefused() {
        var e = assertThrows(
                ConfigurationException.class,
                () -> budget(TestDelivery.defaults().maxAttempts(6).build(), 6, false)
                        .check());
        assertTrue(
                e.getMessage()
                        .contains("pastebin.delivery.queue.max-receive-count (6) must be greater than "
                                + "pastebin.delivery.max-attempts (6)"),
                e.getMessage());
    }

    @Test
    void aQueueThatWouldDeadLetterBeforeThePasteIsGivenUpIsRefused() {
        var e = assertThrows(
                ConfigurationException.class,
                () -> budget(TestDelivery.defaults().giveUpAfterAttempts(10).build(), 10, false)
                        .check());
        assertTrue(
                e.getMessage()
                        .contains("pastebin.delivery.give-up-after-attempts (10) must be less than "
                                + "pastebin.delivery.queue.max-receive-count (10)"),
                e.getMessage());
    }

    @Test
    void theLastDeliveryIsTheQueuesMaxReceiveCount() {
        ReceiveBudget budget = budget(320);
        assertFalse(budget.isLastDelivery(new Delivery(319)));
        assertTrue(budget.isLastDelivery(new Delivery(320)));
        assertTrue(budget.isLastDelivery(new Delivery(321)), "a count past it (SQS's count is approximate) too");
    }
}
