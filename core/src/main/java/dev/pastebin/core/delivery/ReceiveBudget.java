package dev.pastebin.core.delivery;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.random.RestoreSafeRandom;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The deliveries a job has (the queue's {@code maxReceiveCount}) against the deliveries its schedule can take.
 * {@link #check()}, when the upload worker starts: no job may reach the dead-letter queue by redrive while it is
 * still on its schedule. A job can spend {@code max-attempts} deliveries on its fast S3 attempts and up to
 * {@link #heldDeliveriesWithinLimit()} waiting on the hold schedule, held by the breaker or slow after its fast
 * attempts (both count from the one first hold, and every wait is at least as long as the schedule allows, for
 * the whole {@code hold-limit}); the queue's {@code maxReceiveCount} must leave room for both and for a couple of
 * deliveries lost to the database or a timeout. With the defaults: 6 + 296 + 2 = 304. (The delivery of the last
 * fast attempt is also the first slow one, so this counts it twice: one to spare.) With the breaker off only the
 * fast attempts are counted (tests and benchmarks run the fast schedule alone on short queues): a job that runs
 * out of receives early is still kept by the dead-letter queue, only sooner.
 *
 * <p>Not counted: a release on close ends a hold early, so each closing costs each released job one more
 * receive, and closings have no bound (an S3 that flaps closes the breaker again and again). No fixed spare can
 * cover them, and none needs to: a job that runs out of receives early is redriven to the dead-letter queue with
 * its content, which fires the dead-letter alarm, and the first sweep that finds the breaker closed requeues it
 * as a new message, with a fresh budget and the same first hold.
 */
@Singleton
public final class ReceiveBudget {

    /** Deliveries that make no attempt for other reasons: released unstarted, the database down, a timeout. */
    public static final int SLACK = 2;

    private final DeliveryProperties delivery;
    private final DeliveryQueueProperties queue;
    private final boolean holds;
    private final HoldSchedule schedule;

    @Inject
    public ReceiveBudget(DeliveryProperties delivery, DeliveryQueueProperties queue, S3CircuitBreaker breaker) {
        this(delivery, queue, breaker.enabled());
    }

    /** {@code holds}: whether jobs wait on the breaker at all (it is on). */
    public ReceiveBudget(DeliveryProperties delivery, DeliveryQueueProperties queue, boolean holds) {
        this.delivery = delivery;
        this.queue = queue;
        this.holds = holds;
        this.schedule = new HoldSchedule(delivery, RestoreSafeRandom.generator());
    }

    /** Whether {@code delivery} is the queue's last: if it fails, the redrive moves the job to the dead-letter queue. */
    public boolean isLastDelivery(Delivery delivery) {
        return delivery.number() >= queue.maxReceiveCount();
    }

    /**
     * The most deliveries a job can wait in before it passes the hold limit: every hold as short as the schedule
     * allows (the probe due at once, no jitter).
     */
    public int heldDeliveriesWithinLimit() {
        return schedule.heldDeliveriesWithinLimit();
    }

    /** The receives a job needs: its fast attempts, and with the breaker on its waits and {@link #SLACK}. */
    public int needed() {
        return holds ? delivery.maxAttempts() + heldDeliveriesWithinLimit() + SLACK : delivery.maxAttempts() + 1;
    }

    /** Throws when the queue's receives cannot cover the schedule, saying what to change. */
    public void check() {
        int receives = queue.maxReceiveCount();
        if (receives <= delivery.maxAttempts()) {
            throw new ConfigurationException("pastebin.delivery.queue.max-receive-count (" + receives
                    + ") must be greater than pastebin.delivery.max-attempts (" + delivery.maxAttempts()
                    + "): otherwise the queue moves a failing message to the dead-letter queue before its fast "
                    + "attempts are even made. Raise the queue's maxReceiveCount (and this property) or lower "
                    + "max-attempts.");
        }
        if (delivery.giveUpAfterAttempts() >= receives) {
            throw new ConfigurationException("pastebin.delivery.give-up-after-attempts ("
                    + delivery.giveUpAfterAttempts() + ") must be less than pastebin.delivery.queue.max-receive-count ("
                    + receives + "): otherwise the queue moves a failing message to the dead-letter queue before the "
                    + "paste is given up.");
        }
        if (!holds) {
            return;
        }
        int held = heldDeliveriesWithinLimit();
        int needed = needed();
        if (receives < needed) {
            throw new ConfigurationException("pastebin.delivery.queue.max-receive-count (" + receives
                    + ") must be at least " + needed + ": " + delivery.maxAttempts() + " S3 attempts + " + held
                    + " deliveries held by the breaker or slow (" + schedule.describe() + ") + " + SLACK
                    + " spare, or a job could reach the dead-letter queue while its paste is still waiting. Raise the "
                    + "queue's maxReceiveCount (at most " + SqsLimits.MAX_MAX_RECEIVE_COUNT + "), raise "
                    + "pastebin.delivery.max-hold or lower pastebin.delivery.hold-limit.");
        }
    }
}
