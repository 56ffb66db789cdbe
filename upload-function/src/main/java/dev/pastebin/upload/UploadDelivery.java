package dev.pastebin.upload;

import dev.pastebin.core.delivery.Delivery;
import io.micronaut.core.annotation.Nullable;

/**
 * One delivery of one message being worked on: the message, the paste it is for once the job is decoded,
 * and when the work started (for the delivery log's latency).
 */
record UploadDelivery(UploadMessage message, @Nullable String shortCode, long startedNanos) {

    static UploadDelivery begin(UploadMessage message) {
        return new UploadDelivery(message, null, System.nanoTime());
    }

    UploadDelivery forPaste(String shortCode) {
        return new UploadDelivery(message, shortCode, startedNanos);
    }

    /** Which delivery of the job this is (1: the first); not the paste's S3 attempt. */
    Delivery number() {
        return message.delivery();
    }

    long elapsedMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
