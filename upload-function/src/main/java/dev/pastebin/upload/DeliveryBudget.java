package dev.pastebin.upload;

import dev.pastebin.core.breaker.HoldSchedule;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.core.retry.RetryProperties;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;

/**
 * Checked when the function starts: no job may reach the dead-letter queue while it is still waiting within
 * the hold limit. A job can spend {@code maxAttempts} deliveries on its fast S3 attempts and up to
 * {@link HoldSchedule#heldDeliveriesWithinLimit()} waiting on the hold schedule, held by the breaker or slow
 * after its fast attempts (both count from the one first hold, and every wait is at least as long as the
 * schedule allows, for the whole {@code hold-limit}); the queue's {@code maxReceiveCount} must leave room for
 * both and for a couple of deliveries lost to the database or a timeout. With the defaults: 6 + 296 + 2 = 304.
 * (The delivery of the last fast attempt is also the first slow one, so this counts it twice: one to spare.)
 * With the breaker off the check is skipped (tests and benchmarks run the fast schedule alone on short
 * queues): a job that runs out of receives early is still kept by the dead-letter queue, only sooner.
 *
 * <p>Not counted: a release on close ({@link HeldJobRelease}) ends a hold early, so each closing costs each
 * released job one more receive, and closings have no bound (an S3 that flaps closes the breaker again and
 * again). No fixed spare can cover them, and none needs to: a job that runs out of receives early is
 * redriven to the dead-letter queue with its content, which fires the dead-letter alarm, and the first sweep
 * that finds the breaker closed requeues it as a new message, with a fresh budget and the same first hold.
 */
@Context
class DeliveryBudget {

    /** Deliveries that make no attempt for other reasons: released unstarted, the database down, a timeout. */
    static final int SLACK = 2;

    DeliveryBudget(RetryProperties retry, HoldSchedule holds) {
        if (!holds.enabled()) {
            return; // RetryProperties already requires maxReceiveCount > maxAttempts
        }
        int held = holds.heldDeliveriesWithinLimit();
        int needed = retry.maxAttempts() + held + SLACK;
        if (retry.queueMaxReceiveCount() < needed) {
            throw new ConfigurationException("pastebin.upload.retry.queue-max-receive-count ("
                    + retry.queueMaxReceiveCount() + ") must be at least " + needed + ": " + retry.maxAttempts()
                    + " S3 attempts + " + held + " deliveries held by the breaker or slow (" + holds.describe() + ") + "
                    + SLACK + " spare, or a job could reach the dead-letter queue while its paste is still "
                    + "waiting. Raise the queue's maxReceiveCount (at most " + SqsLimits.MAX_MAX_RECEIVE_COUNT
                    + "), raise pastebin.breaker.max-hold or "
                    + "lower pastebin.breaker.hold-limit.");
        }
    }
}
