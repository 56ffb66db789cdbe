package dev.pastebin.local;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Lambda's SQS event source mapping for one function: long-polls the queue, invokes the function with a
 * batch, and deletes what succeeded. With ReportBatchItemFailures exactly the messages not listed in
 * {@code batchItemFailures} are deleted; a failed invocation deletes none (they reappear after the
 * visibility timeout, or after whatever visibility the function set).
 */
final class SqsEventSourceMapping implements AutoCloseable {

    private static final int MAX_RECEIVE = 10;
    private static final int WAIT_SECONDS = 20;

    private final LocalFunction function;
    private final FunctionDefinition.SqsTrigger trigger;
    private final SqsClient sqs;
    private final String queueUrl;
    private final String region;
    private final PrintStream log;
    private volatile boolean running = true;
    private Thread poller;
    private String queueArn;

    SqsEventSourceMapping(LocalFunction function, FunctionDefinition.SqsTrigger trigger, SqsClient sqs,
                          String queueUrl, String region, PrintStream log) {
        this.function = function;
        this.trigger = trigger;
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.region = region;
        this.log = log;
    }

    void start() {
        resolveQueueArn();
        poller = Thread.ofPlatform().daemon().name("sqs-" + function.definition().logicalId()).start(this::run);
    }

    /** The queue's ARN, written into every record as eventSourceARN. */
    void resolveQueueArn() {
        try {
            queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                    .attributes().get(QueueAttributeName.QUEUE_ARN);
        } catch (SdkException e) {
            throw new IllegalStateException("the queue of " + function.definition().logicalId() + " (" + queueUrl
                    + ", PASTEBIN_UPLOAD_QUEUE_URL) is not reachable: " + e.getMessage()
                    + ". Start the services and create it with infra/local/up", e);
        }
    }

    private void run() {
        while (running) {
            try {
                List<Message> batch = receiveBatch();
                if (!batch.isEmpty()) {
                    process(batch);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.println("SQS " + function.definition().logicalId() + ": poll failed: " + e.getMessage()
                        + "; retrying in 5 s");
                try {
                    Thread.sleep(5000);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** One long poll; then, within the batching window, more receives until the batch is full. */
    List<Message> receiveBatch() {
        List<Message> batch = new ArrayList<>(receive(Math.min(trigger.batchSize(), MAX_RECEIVE), WAIT_SECONDS));
        long windowEnd = System.nanoTime() + trigger.maximumBatchingWindow().toNanos();
        while (running && !batch.isEmpty() && batch.size() < trigger.batchSize() && System.nanoTime() < windowEnd) {
            long remaining = Duration.ofNanos(windowEnd - System.nanoTime()).toSeconds();
            batch.addAll(receive(Math.min(trigger.batchSize() - batch.size(), MAX_RECEIVE),
                    (int) Math.min(WAIT_SECONDS, Math.max(remaining, 0))));
        }
        return batch;
    }

    private List<Message> receive(int max, int waitSeconds) {
        return sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(max).waitTimeSeconds(waitSeconds)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
    }

    /** Invokes the function with the batch and deletes what the mapping would delete; returns the deleted ids. */
    Set<String> process(List<Message> batch) throws InterruptedException {
        byte[] event = Json.bytes(SqsEvents.event(batch, queueArn, region));
        InvocationResult result = function.invoke(event, "SQS batch of " + batch.size());
        if (result.failed()) {
            return Set.of();
        }
        Set<String> ids = batch.stream().map(Message::messageId).collect(Collectors.toSet());
        Set<String> failed;
        if (trigger.reportBatchItemFailures()) {
            var reported = SqsEvents.reportedFailures(result.payload(), ids);
            if (reported.isEmpty()) {
                log.println("SQS " + function.definition().logicalId()
                        + ": invalid batchItemFailures response; the whole batch is treated as failed");
                return Set.of();
            }
            failed = reported.get();
        } else {
            failed = Set.of();
        }
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        Set<String> deleted = new HashSet<>();
        for (int i = 0; i < batch.size(); i++) {
            Message m = batch.get(i);
            if (!failed.contains(m.messageId())) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i))
                        .receiptHandle(m.receiptHandle()).build());
                deleted.add(m.messageId());
            }
        }
        if (!entries.isEmpty()) {
            var response = sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            response.failed().forEach(f -> log.println("SQS " + function.definition().logicalId()
                    + ": delete failed for entry " + f.id() + ": " + f.message()));
        }
        return deleted;
    }

    @Override
    public void close() {
        running = false;
        if (poller != null) {
            poller.interrupt();
        }
    }
}
