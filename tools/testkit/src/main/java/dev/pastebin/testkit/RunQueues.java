package dev.pastebin.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The queues of one run in LocalStack: created here, or found by name (ones the run command created), and deleted
 * together at the end.
 */
public final class RunQueues {

    private final SqsClient sqs;
    private final List<String> urls = new ArrayList<>();

    public RunQueues(SqsClient sqs) {
        this.sqs = sqs;
    }

    /** Creates the queue {@code name} with these attributes; its URL. */
    public String create(String name, Map<QueueAttributeName, String> attributes) {
        return add(
                sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl());
    }

    /** The URL of the existing queue {@code name}. */
    public String find(String name) {
        return add(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl());
    }

    private String add(String url) {
        urls.add(url);
        return url;
    }

    /** The URLs of the queues created or found so far, in that order. */
    public List<String> urls() {
        return List.copyOf(urls);
    }

    /** Deletes every queue created or found so far, also when one fails; then throws the first failure, if any. */
    public void deleteAll() {
        RuntimeException failure = null;
        for (String url : urls) {
            try {
                sqs.deleteQueue(b -> b.queueUrl(url));
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        urls.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
