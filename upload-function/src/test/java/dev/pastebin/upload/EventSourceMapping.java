package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What Lambda's SQS event source mapping does, for tests: receive up to 10 messages with all attributes,
 * build the {@link SQSEvent} the way Lambda builds it, invoke the handler once per batch, and then delete
 * exactly the messages not listed in {@code batchItemFailures} (none if the handler throws).
 */
final class EventSourceMapping {

    /** One delivery of a message to the handler. */
    record Delivery(String messageId, Instant receivedAt, int receiveCount, boolean reported) {
    }

    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final UploadHandler handler;
    private final Supplier<Context> lambdaContext;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    EventSourceMapping(SqsClient sqs, String queueUrl, UploadHandler handler, Supplier<Context> lambdaContext) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        this.handler = handler;
        this.lambdaContext = lambdaContext;
    }

    List<Message> receive(int max, int waitSeconds) {
        return sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(max).waitTimeSeconds(waitSeconds)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
    }

    /** One invocation for these messages, then the mapping's delete of every message not reported. */
    SQSBatchResponse invoke(List<Message> messages) {
        Instant receivedAt = Instant.now();
        SQSBatchResponse response;
        try {
            response = handler.handleRequest(toEvent(messages), lambdaContext.get());
        } catch (RuntimeException e) {
            // A thrown handler fails the whole batch: nothing is deleted.
            messages.forEach(m -> deliveries.add(new Delivery(m.messageId(), receivedAt, receiveCount(m), true)));
            throw e;
        }
        Set<String> reported = response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
        var delete = new ArrayList<DeleteMessageBatchRequestEntry>();
        for (Message message : messages) {
            deliveries.add(new Delivery(message.messageId(), receivedAt, receiveCount(message), reported.contains(message.messageId())));
            if (!reported.contains(message.messageId())) {
                delete.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(delete.size()))
                        .receiptHandle(message.receiptHandle()).build());
            }
        }
        if (!delete.isEmpty()) {
            var result = sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(delete));
            if (result.hasFailed() && !result.failed().isEmpty()) {
                throw new AssertionError("delete failed: " + result.failed());
            }
        }
        return response;
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
        throw new AssertionError("queue " + queueUrl + " still holds messages after " + within + "; deliveries: " + deliveries);
    }

    boolean isEmpty() {
        var attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
        return attributes.values().stream().allMatch("0"::equals);
    }

    int messagesInQueue() {
        var attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
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
            gaps.add(Duration.between(of.get(i - 1).receivedAt(), of.get(i).receivedAt()).toMillis() / 1000.0);
        }
        return gaps;
    }

    private SQSEvent toEvent(List<Message> messages) {
        String region = queueArn.split(":")[3];
        var records = new ArrayList<SQSEvent.SQSMessage>();
        for (Message message : messages) {
            var record = new SQSEvent.SQSMessage();
            record.setMessageId(message.messageId());
            record.setReceiptHandle(message.receiptHandle());
            record.setBody(message.body());
            record.setMd5OfBody(message.md5OfBody());
            record.setMd5OfMessageAttributes(message.md5OfMessageAttributes());
            record.setAttributes(new HashMap<>(message.attributesAsStrings()));
            record.setMessageAttributes(Map.of());
            record.setEventSource("aws:sqs");
            record.setEventSourceArn(queueArn);
            record.setAwsRegion(region);
            records.add(record);
        }
        var event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    private static int receiveCount(Message message) {
        return Integer.parseInt(message.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
    }
}
