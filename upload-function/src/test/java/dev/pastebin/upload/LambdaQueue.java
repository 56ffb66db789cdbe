package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.local.lambda.InProcessFunction;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The upload queue as Lambda feeds it to the handler: the local runtime's SQS event source mapping (event
 * built as Lambda builds it, deletes of exactly the messages not in {@code batchItemFailures}) driven one
 * batch at a time, with the handler invoked in this JVM. Records each delivery for the assertions.
 */
final class LambdaQueue {

    /** The trigger of infra/template.yaml's UploadPasteFunction, as far as a single-stepped mapping uses it. */
    private static final SqsEventSourceMapping.Settings TRIGGER =
            new SqsEventSourceMapping.Settings(10, Duration.ZERO, true, 2);

    /** One delivery of a message to the handler. */
    record Delivery(String messageId, Instant receivedAt, int receiveCount, boolean reported) {}

    private final SqsClient sqs;
    private final SqsEventSourceMapping mapping;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private volatile SQSBatchResponse lastResponse;

    LambdaQueue(SqsClient sqs, String queueUrl, UploadHandler handler, Supplier<Context> lambdaContext) {
        this.sqs = sqs;
        var function = InProcessFunction.of(
                "UploadPasteFunction",
                (SQSEvent event, Context context) -> {
                    Instant receivedAt = Instant.now();
                    SQSBatchResponse response = null;
                    try {
                        response = handler.handleRequest(event, context);
                        return response;
                    } finally {
                        record(event, receivedAt, response);
                    }
                },
                SQSEvent.class,
                lambdaContext);
        this.mapping = new SqsEventSourceMapping(
                function, TRIGGER, sqs, SqsEventSourceMapping.Queue.at(sqs, queueUrl), System.err);
    }

    List<Message> receive(int max, int waitSeconds) {
        return mapping.receive(max, waitSeconds);
    }

    /** One invocation for these messages, then the mapping's delete of every message not reported. */
    SQSBatchResponse invoke(List<Message> messages) {
        lastResponse = null;
        try {
            mapping.process(messages);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (lastResponse == null) {
            throw new IllegalStateException("the handler failed; nothing was deleted (see its error above)");
        }
        return lastResponse;
    }

    /** Polls and invokes until the queue holds no message at all, or fails after {@code within}. */
    void runUntilEmpty(Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            List<Message> messages = receive(10, 1);
            if (!messages.isEmpty()) {
                invoke(messages);
            } else if (isEmpty()) {
                return;
            }
        }
        throw new AssertionError("queue " + mapping.queue().url() + " still holds messages after " + within
                + "; deliveries: " + deliveries);
    }

    /** Polls and invokes until {@code reached} holds (checked between polls), or fails after {@code within}. */
    void runUntil(BooleanSupplier reached, String what, Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (!reached.getAsBoolean()) {
            if (!Instant.now().isBefore(deadline)) {
                throw new AssertionError("not reached after " + within + ": " + what + "; deliveries: " + deliveries);
            }
            List<Message> messages = receive(10, 1);
            if (!messages.isEmpty()) {
                invoke(messages);
            }
        }
    }

    boolean isEmpty() {
        return messagesInQueue() == 0;
    }

    int messagesInQueue() {
        var attributes = sqs.getQueueAttributes(b -> b.queueUrl(mapping.queue().url())
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes();
        return attributes.values().stream().mapToInt(Integer::parseInt).sum();
    }

    List<Delivery> deliveriesOf(String messageId) {
        return deliveries.stream().filter(d -> d.messageId().equals(messageId)).toList();
    }

    /** Seconds between consecutive deliveries of a message. */
    List<Double> gapsOf(String messageId) {
        List<Delivery> of = deliveriesOf(messageId);
        var gaps = new ArrayList<Double>();
        for (int i = 1; i < of.size(); i++) {
            gaps.add(Duration.between(of.get(i - 1).receivedAt(), of.get(i).receivedAt())
                            .toMillis()
                    / 1000.0);
        }
        return gaps;
    }

    /** A thrown handler (no response) counts every record as reported: the whole batch is retried. */
    private void record(SQSEvent event, Instant receivedAt, SQSBatchResponse response) {
        Set<String> reported = response == null
                ? null
                : response.getBatchItemFailures().stream()
                        .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                        .collect(Collectors.toSet());
        for (SQSEvent.SQSMessage m : event.getRecords()) {
            deliveries.add(new Delivery(
                    m.getMessageId(),
                    receivedAt,
                    Integer.parseInt(m.getAttributes().get("ApproximateReceiveCount")),
                    reported == null || reported.contains(m.getMessageId())));
        }
        lastResponse = response;
    }
}
