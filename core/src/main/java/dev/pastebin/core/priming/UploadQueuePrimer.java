package dev.pastebin.core.priming;

import dev.pastebin.core.config.UploadQueueProperties;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** {@code GetQueueAttributes} on the upload queue: builds the SQS client's request path and connection. */
@Singleton
@Requires(classes = SqsClient.class)
@Requires(beans = SqsClient.class)
public class UploadQueuePrimer implements Primer {

    private final SqsClient sqs;
    private final UploadQueueProperties queue;

    public UploadQueuePrimer(SqsClient sqs, UploadQueueProperties queue) {
        this.sqs = sqs;
        this.queue = queue;
    }

    @Override
    public String name() {
        return "upload queue (GetQueueAttributes)";
    }

    @Override
    public void prime() {
        sqs.getQueueAttributes(b -> b.queueUrl(queue.url()).attributeNames(QueueAttributeName.QUEUE_ARN));
    }
}
