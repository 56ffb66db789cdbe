package dev.pastebin.core.moderation;

import io.micronaut.context.annotation.Requires;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Sends to the moderation outbox queue. The functions inside the VPC (reports, takedowns) cannot reach CloudFront's
 * or SNS's API: the queue hands their requests to the moderation outbox function, outside it.
 */
@Singleton
@Requires(classes = SqsClient.class) // only the functions that send carry the SQS client
public class ModerationOutbox {

    private final SqsClient sqs;
    private final ObjectMapper json;
    private final ModerationOutboxProperties properties;

    ModerationOutbox(SqsClient sqs, ObjectMapper json, ModerationOutboxProperties properties) {
        this.sqs = sqs;
        this.json = json;
        this.properties = properties;
    }

    public void send(OutboxMessage message) {
        String body;
        try {
            body = json.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sqs.sendMessage(send -> send.queueUrl(properties.url()).messageBody(body));
    }
}
