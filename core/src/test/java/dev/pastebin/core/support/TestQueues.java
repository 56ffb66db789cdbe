package dev.pastebin.core.support;

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.util.Map;
import java.util.UUID;

/** Creates a fresh upload queue with its own dead-letter queue in LocalStack, so tests never share queues. */
public final class TestQueues {

    public record Pair(String queueUrl, String deadLetterQueueUrl) {
    }

    private TestQueues() {
    }

    public static Pair create(SqsClient sqs, String prefix, int maxReceiveCount, int visibilityTimeoutSeconds) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String dlqUrl = sqs.createQueue(b -> b.queueName(prefix + "-dlq-" + suffix)).queueUrl();
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String queueUrl = sqs.createQueue(b -> b.queueName(prefix + "-" + suffix).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilityTimeoutSeconds),
                QueueAttributeName.REDRIVE_POLICY,
                "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + maxReceiveCount + "\"}"))).queueUrl();
        return new Pair(queueUrl, dlqUrl);
    }

    public static void delete(SqsClient sqs, Pair pair) {
        sqs.deleteQueue(b -> b.queueUrl(pair.queueUrl()));
        sqs.deleteQueue(b -> b.queueUrl(pair.deadLetterQueueUrl()));
    }
}
