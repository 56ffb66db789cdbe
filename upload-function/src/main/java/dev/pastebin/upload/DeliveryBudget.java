package dev.pastebin.upload;

import dev.pastebin.core.delivery.ReceiveBudget;
import io.micronaut.context.annotation.Context;

/**
 * Checked when the worker starts ({@link ReceiveBudget#check()}): no job may reach the dead-letter queue by redrive
 * while it is still waiting within the hold limit. Only the worker reads the queue's {@code maxReceiveCount}, so
 * only the worker checks it.
 */
@Context
class DeliveryBudget {

    DeliveryBudget(ReceiveBudget budget) {
        budget.check();
    }
}
