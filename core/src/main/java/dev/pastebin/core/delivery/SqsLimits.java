package dev.pastebin.core.delivery;

import java.time.Duration;

/**
 * SQS's own limits that the delivery of a job runs into, written once (SQS Developer Guide, "Quotas related to
 * messages" and "Visibility timeout"; the redrive policy's {@code maxReceiveCount}). Every wait, every batch and
 * every check of the receive budget takes its bound from here.
 */
public final class SqsLimits {

    /** The longest visibility timeout SQS accepts: 12 hours, so the longest any wait between deliveries can be. */
    public static final Duration MAX_VISIBILITY_TIMEOUT = Duration.ofHours(12);

    /** {@link #MAX_VISIBILITY_TIMEOUT} in seconds (43,200), the unit of {@code ChangeMessageVisibility}. */
    public static final int MAX_VISIBILITY_TIMEOUT_SECONDS = (int) MAX_VISIBILITY_TIMEOUT.toSeconds();

    /** The smallest {@code maxReceiveCount} a redrive policy takes. */
    public static final int MIN_MAX_RECEIVE_COUNT = 1;

    /** The largest {@code maxReceiveCount} a redrive policy takes: no job gets more deliveries than this. */
    public static final int MAX_MAX_RECEIVE_COUNT = 1000;

    /**
     * Entries per batch call ({@code ChangeMessageVisibilityBatch}, {@code DeleteMessageBatch}) and messages per
     * {@code ReceiveMessage}.
     */
    public static final int BATCH_ENTRIES = 10;

    private SqsLimits() {}

    /** {@code seconds} within what a visibility timeout can be: 0 to {@link #MAX_VISIBILITY_TIMEOUT_SECONDS}. */
    public static int visibilityTimeoutSeconds(long seconds) {
        return Math.clamp(seconds, 0, MAX_VISIBILITY_TIMEOUT_SECONDS);
    }
}
