package dev.pastebin.upload;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * Records the visibility the worker gives each receipt handle and the messages it sends; can be made to fail
 * like an unreachable SQS ({@code failure} for visibility changes, {@code sendFailure} for sends).
 */
final class RecordingSqs implements SqsClient {

    /** Receipt handle → the visibility timeout last set for it, in seconds. */
    final Map<String, Integer> visibility = new ConcurrentHashMap<>();

    volatile RuntimeException failure;
    /** Every message sent, in order. */
    final List<Sent> sent = new CopyOnWriteArrayList<>();

    volatile RuntimeException sendFailure;

    record Sent(String queueUrl, String body) {}

    @Override
    public SendMessageResponse sendMessage(SendMessageRequest request) {
        if (sendFailure != null) {
            throw sendFailure;
        }
        sent.add(new Sent(request.queueUrl(), request.messageBody()));
        return SendMessageResponse.builder().messageId("sent-" + sent.size()).build();
    }

    @Override
    public ChangeMessageVisibilityResponse changeMessageVisibility(ChangeMessageVisibilityRequest request) {
        if (failure != null) {
            throw failure;
        }
        visibility.put(request.receiptHandle(), request.visibilityTimeout());
        return ChangeMessageVisibilityResponse.builder().build();
    }

    @Override
    public ChangeMessageVisibilityBatchResponse changeMessageVisibilityBatch(
            ChangeMessageVisibilityBatchRequest request) {
        if (failure != null) {
            throw failure;
        }
        request.entries().forEach(e -> visibility.put(e.receiptHandle(), e.visibilityTimeout()));
        return ChangeMessageVisibilityBatchResponse.builder().build();
    }

    @Override
    public String serviceName() {
        return "sqs";
    }

    @Override
    public void close() {}
}
