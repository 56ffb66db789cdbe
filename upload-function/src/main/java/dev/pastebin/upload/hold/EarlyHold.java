package dev.pastebin.upload.hold;

import dev.pastebin.core.aws.SqsProperties;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.delivery.DeliveryProperties;
import java.time.Duration;
import java.time.Instant;

/**
 * When a delivery's first statement may hold its job at once (docs/design.md, "Circuit breaker"), noting the hold
 * before the message's visibility is changed: only while the breaker is open and its next probe is further away than
 * that change can take, so no close, and no release after it, can come between the note and the change. Anything
 * else (a probe in flight or due soon, a paste that is not IN_PROGRESS, content that does not match the row, a job
 * past the hold limit) is left to the delivery's usual path.
 *
 * @param breaker         the breaker's name
 * @param now             the delivery's time
 * @param heldUntilAtMost the longest the hold can last (the longest hold plus its jitter: max-backlog-hold with
 *                        release on close): the hold's end as noted, before the hold is decided, so that the
 *                        release finds the row whatever the hold turns out to be
 * @param probeAfter      the breaker's next probe must be later than this
 * @param firstHeldAfter  a paste first held before this is past the hold limit
 */
public record EarlyHold(
        String breaker, Instant now, Instant heldUntilAtMost, Instant probeAfter, Instant firstHeldAfter) {

    /** A second on top of the visibility change's own time limit: for the clocks of the environments that probe. */
    static final Duration CLOCK_ALLOWANCE = Duration.ofSeconds(1);

    /** The terms at {@code now}: the change is one SQS call, bounded by {@code pastebin.sqs.call-timeout}. */
    public static EarlyHold at(Instant now, BreakerProperties breaker, DeliveryProperties delivery, SqsProperties sqs) {
        return new EarlyHold(
                breaker.name(),
                now,
                now.plus(delivery.longestHold()).plus(delivery.holdJitter()),
                now.plus(sqs.callTimeout()).plus(CLOCK_ALLOWANCE),
                now.minus(delivery.holdLimit()));
    }
}
