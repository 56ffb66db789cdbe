package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.retry.RetryProperties;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;

/**
 * Checked when the function starts: no job may reach the dead-letter queue because the breaker held it.
 * A job can spend {@code maxAttempts} deliveries on real S3 attempts and up to
 * {@link BreakerProperties#maxHeldDeliveries()} waiting for a closed breaker (each hold lasts at least
 * {@code hold-at-least}, and a paste waits at most {@code max-wait}); the queue's {@code maxReceiveCount} must
 * leave room for both and for a couple of deliveries lost to the database or a timeout.
 */
@Context
class DeliveryBudget {

    /** Deliveries that make no attempt for other reasons: released unstarted, the database down, a timeout. */
    static final int SLACK = 2;

    DeliveryBudget(RetryProperties retry, BreakerProperties breaker) {
        if (!breaker.enabled()) {
            return; // RetryProperties already requires maxReceiveCount > maxAttempts
        }
        int needed = retry.maxAttempts() + breaker.maxHeldDeliveries() + SLACK;
        if (retry.queueMaxReceiveCount() < needed) {
            throw new ConfigurationException("pastebin.upload.retry.queue-max-receive-count ("
                    + retry.queueMaxReceiveCount() + ") must be at least " + needed + ": " + retry.maxAttempts()
                    + " S3 attempts + " + breaker.maxHeldDeliveries() + " deliveries held by the breaker (max-wait " + breaker.maxWait() + " / hold-at-least "
                    + breaker.holdAtLeast() + ") + " + SLACK + " spare, or a job could reach the dead-letter queue "
                    + "while its paste is still waiting. Raise the queue's maxReceiveCount or lower pastebin.breaker.max-wait.");
        }
    }
}
