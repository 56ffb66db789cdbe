package dev.pastebin.upload;

import io.micronaut.core.annotation.Nullable;

/**
 * One delivery of one message being worked on: the message, the paste it is for once the job is decoded,
 * and when the work started (for the attempt log's latency).
 */
record UploadAttempt(UploadMessage message, @Nullable String shortCode, long startedNanos) {

    static UploadAttempt begin(UploadMessage message) {
        return new UploadAttempt(message, null, System.nanoTime());
    }

    UploadAttempt forPaste(String shortCode) {
        return new UploadAttempt(message, shortCode, startedNanos);
    }

    int number() {
        return message.attempt();
    }

    long elapsedMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
