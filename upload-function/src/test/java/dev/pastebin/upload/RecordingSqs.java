package dev.pastebin.upload;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkClientException;
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

    /** A visibility batch holding one of these receipt handles fails as a whole, like a call SQS never answered. */
    final Set<String> failingBatchesWith = ConcurrentHashMap.newKeySet();

    /** How many visibility batches were called, failed or not. */
    final AtomicInteger batchCalls = new AtomicInteger();

    /** {@code groupId}: the message's {@code MessageGroupId}, {@code null} when it was sent without one. */
    record Sent(String queueUrl, String body, String groupId) {}

    @Override
    public SendMessageResponse sendMessage(SendMessageRequest request) {
        if (sendFailure != null) {
            throw sendFailure;
        }
        sent.add(new Sent(request.queueUrl(), request.messageBody(), request.messageGroupId()));
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
        batchCalls.incrementAndGet();
        if (failure != null) {
            throw failure;
        }
        if (request.entries().stream().anyMatch(e -> failingBatchesWith.contains(e.receiptHandle()))) {
            throw SdkClientException.create("Unable to execute HTTP request: connection refused");
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
