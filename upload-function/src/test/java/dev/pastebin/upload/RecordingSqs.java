package dev.pastebin.upload;

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityResponse;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Records the visibility the worker gives each receipt handle; can be made to fail like an unreachable SQS. */
final class RecordingSqs implements SqsClient {

    /** Receipt handle → the visibility timeout last set for it, in seconds. */
    final Map<String, Integer> visibility = new ConcurrentHashMap<>();
    volatile RuntimeException failure;

    @Override
    public ChangeMessageVisibilityResponse changeMessageVisibility(ChangeMessageVisibilityRequest request) {
        if (failure != null) {
            throw failure;
        }
        visibility.put(request.receiptHandle(), request.visibilityTimeout());
        return ChangeMessageVisibilityResponse.builder().build();
    }

    @Override
    public ChangeMessageVisibilityBatchResponse changeMessageVisibilityBatch(ChangeMessageVisibilityBatchRequest request) {
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
    public void close() {
    }
}
