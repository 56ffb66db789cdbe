package dev.pastebin.core.support;

import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates a fresh upload queue with its own dead-letter queue in LocalStack, so tests never share queues. Both
 * take messages up to 1 MiB, as the template's queues (infra/template.yaml, MaximumMessageSize).
 */
public final class TestQueues {

    /** The template's MaximumMessageSize of both queues: SQS's ceiling, which the largest upload job fits. */
    public static final int MAXIMUM_MESSAGE_SIZE = 1_048_576;

    public record Pair(String queueUrl, String deadLetterQueueUrl) {}

    private TestQueues() {}

    public static Pair create(SqsClient sqs, String prefix, int maxReceiveCount, int visibilityTimeoutSeconds) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String dlqUrl = sqs.createQueue(b -> b.queueName(prefix + "-dlq-" + suffix)
                        .attributes(Map.of(
                                QueueAttributeName.MAXIMUM_MESSAGE_SIZE, Integer.toString(MAXIMUM_MESSAGE_SIZE))))
                .queueUrl();
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        String queueUrl = sqs.createQueue(b -> b.queueName(prefix + "-" + suffix)
                        .attributes(Map.of(
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                Integer.toString(visibilityTimeoutSeconds),
                                QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
                                Integer.toString(MAXIMUM_MESSAGE_SIZE),
                                QueueAttributeName.REDRIVE_POLICY,
                                "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + maxReceiveCount
                                        + "\"}")))
                .queueUrl();
        return new Pair(queueUrl, dlqUrl);
    }

    public static void delete(SqsClient sqs, Pair pair) {
        sqs.deleteQueue(b -> b.queueUrl(pair.queueUrl()));
        sqs.deleteQueue(b -> b.queueUrl(pair.deadLetterQueueUrl()));
    }
}
