package dev.pastebin.upload;

import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.HoldSchedule;
import dev.pastebin.core.retry.RetryProperties;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;

/**
 * Checked when the function starts: no job may reach the dead-letter queue while the breaker still holds it.
 * A job can spend {@code maxAttempts} deliveries on real S3 attempts and up to
 * {@link HoldSchedule#heldDeliveriesWithinLimit()} held by the breaker (every hold as short as the schedule
 * allows, for the whole {@code hold-limit}); the queue's {@code maxReceiveCount} must leave room for both and
 * for a couple of deliveries lost to the database or a timeout. With the defaults: 6 + 296 + 2 = 304.
 */
@Context
class DeliveryBudget {

    /** Deliveries that make no attempt for other reasons: released unstarted, the database down, a timeout. */
    static final int SLACK = 2;

    DeliveryBudget(RetryProperties retry, BreakerProperties breaker) {
        if (!breaker.enabled()) {
            return; // RetryProperties already requires maxReceiveCount > maxAttempts
        }
        int held = new HoldSchedule(breaker).heldDeliveriesWithinLimit();
        int needed = retry.maxAttempts() + held + SLACK;
        if (retry.queueMaxReceiveCount() < needed) {
            throw new ConfigurationException("pastebin.upload.retry.queue-max-receive-count ("
                    + retry.queueMaxReceiveCount() + ") must be at least " + needed + ": " + retry.maxAttempts()
                    + " S3 attempts + " + held + " deliveries held by the breaker (hold-limit " + breaker.holdLimit()
                    + ", holds from hold-at-least " + breaker.holdAtLeast() + " growing to max-hold " + breaker.maxHold()
                    + ") + " + SLACK + " spare, or a job could reach the dead-letter queue while its paste is still "
                    + "held. Raise the queue's maxReceiveCount (at most 1000), raise pastebin.breaker.max-hold or "
                    + "lower pastebin.breaker.hold-limit.");
        }
    }
}
