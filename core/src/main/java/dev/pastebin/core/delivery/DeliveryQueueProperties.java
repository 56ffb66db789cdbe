package dev.pastebin.core.delivery;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The upload queue as the delivery schedule needs it, bound from {@code pastebin.delivery.queue.*}
 * ({@code PASTEBIN_DELIVERY_QUEUE_MAX_RECEIVE_COUNT}). Only the upload worker reads it ({@link ReceiveBudget}): the
 * read and remove functions ask {@link DeliverySchedule} without it, so their environment does not carry it.
 *
 * @param maxReceiveCount the queue's redrive {@code maxReceiveCount}, the same template parameter: it must exceed
 *                        {@code max-attempts} so that the fast schedule runs before the queue moves a message to
 *                        the dead-letter queue, and with the breaker on it must also cover a day of holds and
 *                        slow retries (304 with the defaults, {@link ReceiveBudget})
 */
@ConfigurationProperties("pastebin.delivery.queue")
public record DeliveryQueueProperties(
        @Min(SqsLimits.MIN_MAX_RECEIVE_COUNT) @Max(SqsLimits.MAX_MAX_RECEIVE_COUNT) @Bindable(defaultValue = "320")
        int maxReceiveCount) {}
