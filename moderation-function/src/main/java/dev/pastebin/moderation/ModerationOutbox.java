package dev.pastebin.moderation;

import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Sends to the moderation outbox queue, which {@link ModerationOutboxHandler} consumes outside the VPC. */
@Singleton
class ModerationOutbox {

    private final SqsClient sqs;
    private final ObjectMapper json;
    private final ModerationProperties properties;

    ModerationOutbox(SqsClient sqs, ObjectMapper json, ModerationProperties properties) {
        this.sqs = sqs;
        this.json = json;
        this.properties = properties;
    }

    void send(OutboxMessage message) {
        if (properties.outboxUrl().isBlank()) {
            throw new IllegalStateException("PASTEBIN_MODERATION_OUTBOX_URL is not set");
        }
        String body;
        try {
            body = json.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sqs.sendMessage(send -> send.queueUrl(properties.outboxUrl()).messageBody(body));
    }
}
