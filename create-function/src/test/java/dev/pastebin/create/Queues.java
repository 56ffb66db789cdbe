package dev.pastebin.create;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** Drains what the create function put on a test's own queue. */
final class Queues {

    private Queues() {}

    /**
     * Every message currently on the queue, received and deleted. No long poll: a job the function sent before
     * answering is already visible, and LocalStack's queue, unlike SQS's distributed one, answers a short poll
     * with everything it holds, so an empty answer means empty (a 1-second wait per drain cost every test 2 s).
     * Each message carries its {@code MessageGroupId} attribute: the client the fair queue groups it by.
     */
    static List<Message> drain(SqsClient sqs, String queueUrl) {
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(0)
                            .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)
                            .visibilityTimeout(30))
                    .messages();
            if (batch.isEmpty()) {
                return all;
            }
            for (Message m : batch) {
                sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
            }
            all.addAll(batch);
        }
    }
}
