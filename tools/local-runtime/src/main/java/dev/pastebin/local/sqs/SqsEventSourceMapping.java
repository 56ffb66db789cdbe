package dev.pastebin.local.sqs;

import dev.pastebin.local.Json;
import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.lambda.PayloadLimits;
import dev.pastebin.local.template.FunctionDefinition;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Lambda's SQS event source mapping for one function and queue: pollers receive batches (up to BatchSize,
 * waiting up to MaximumBatchingWindowInSeconds for a batch to fill), invoke the function with each batch, and
 * delete what succeeded. With ReportBatchItemFailures exactly the messages not listed in
 * {@code batchItemFailures} are deleted; a failed invocation deletes none (they reappear after the visibility
 * timeout, or after whatever visibility the function set). As many batches are in flight at once as
 * ScalingConfig.MaximumConcurrency allows, each in its own execution environment of the function.
 *
 * <p>{@link #start()} runs the pollers; tests can instead drive one step at a time with
 * {@link #receiveBatch()} and {@link #process(List)}, with a function of their own (see
 * {@code dev.pastebin.local.lambda.InProcessFunction}).
 */
public final class SqsEventSourceMapping implements AutoCloseable {

    /** SQS returns at most ten messages per ReceiveMessage. */
    private static final int MAX_RECEIVE = 10;

    private static final int LONG_POLL_SECONDS = 20;
    private static final Duration RETRY_AFTER_POLL_FAILURE = Duration.ofSeconds(5);
    /** Short polls in the window's last fraction of a second are this far apart (a receive takes whole seconds). */
    private static final Duration WINDOW_TAIL_POLL = Duration.ofMillis(50);

    /** The trigger's settings that shape polling and deletion. */
    public record Settings(
            int batchSize, Duration maximumBatchingWindow, boolean reportBatchItemFailures, int maximumConcurrency) {

        public static Settings of(FunctionDefinition.SqsTrigger trigger) {
            return new Settings(
                    trigger.batchSize(),
                    trigger.maximumBatchingWindow(),
                    trigger.reportBatchItemFailures(),
                    trigger.maximumConcurrency());
        }
    }

    /** A queue: its URL to call SQS with, and its ARN, written into each record as eventSourceARN. */
    public record Queue(String url, String arn) {

        /** The queue at {@code url}, its ARN as SQS reports it; a clear error when it is not reachable. */
        public static Queue at(SqsClient sqs, String url) {
            try {
                return new Queue(
                        url,
                        sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                                .attributes()
                                .get(QueueAttributeName.QUEUE_ARN));
            } catch (SdkException e) {
                throw new IllegalStateException("the queue " + url + " is not reachable: " + e.getMessage(), e);
            }
        }

        String region() {
            return arn.split(":")[3];
        }
    }

    private final LambdaFunction function;
    private final Settings settings;
    private final SqsClient sqs;
    private final Queue queue;
    private final PrintStream log;
    private final List<Thread> pollers = new ArrayList<>();
    private volatile boolean running = true;

    public SqsEventSourceMapping(
            LambdaFunction function, Settings settings, SqsClient sqs, Queue queue, PrintStream log) {
        this.function = function;
        this.settings = settings;
        this.sqs = sqs;
        this.queue = queue;
        this.log = log;
    }

    public Queue queue() {
        return queue;
    }

    /** Starts one poller per batch that may be in flight (MaximumConcurrency). */
    public synchronized void start() {
        for (int i = 0; i < settings.maximumConcurrency(); i++) {
            pollers.add(Thread.ofPlatform()
                    .daemon()
                    .name("sqs-" + function.name() + "-" + i)
                    .start(this::poll));
        }
    }

    private void poll() {
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
                log.println("SQS " + function.name() + ": poll failed: " + e.getMessage() + "; retrying in "
                        + RETRY_AFTER_POLL_FAILURE.toSeconds() + " s");
                try {
                    Thread.sleep(RETRY_AFTER_POLL_FAILURE);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /**
     * One batch, as Lambda's pollers build it: a long poll that returns as soon as messages are there; with a
     * window of 0 that is the batch. Otherwise more receives until BatchSize is reached or the window ends
     * (long polls for its whole seconds, then short polls a little apart, so the window is kept to within
     * {@link #WINDOW_TAIL_POLL}). Empty when the long poll found nothing.
     */
    public List<Message> receiveBatch() {
        List<Message> batch = new ArrayList<>(receive(Math.min(settings.batchSize(), MAX_RECEIVE), LONG_POLL_SECONDS));
        long windowEnd = System.nanoTime() + settings.maximumBatchingWindow().toNanos();
        while (running && !batch.isEmpty() && batch.size() < settings.batchSize() && System.nanoTime() < windowEnd) {
            Duration remaining = Duration.ofNanos(windowEnd - System.nanoTime());
            List<Message> more = receive(Math.min(settings.batchSize() - batch.size(), MAX_RECEIVE), (int)
                    Math.min(LONG_POLL_SECONDS, remaining.toSeconds()));
            if (more.isEmpty() && remaining.toSeconds() == 0 && !pause(remaining)) {
                return batch; // interrupted (closing): hand over what was received
            }
            batch.addAll(more);
        }
        return batch;
    }

    private static boolean pause(Duration remaining) {
        try {
            Thread.sleep(Math.min(remaining.toMillis(), WINDOW_TAIL_POLL.toMillis()));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One ReceiveMessage with every attribute the event carries. */
    public List<Message> receive(int maxMessages, int waitSeconds) {
        return sqs.receiveMessage(b -> b.queueUrl(queue.url())
                        .maxNumberOfMessages(maxMessages)
                        .waitTimeSeconds(waitSeconds)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                        .messageAttributeNames("All"))
                .messages();
    }

    /**
     * Invokes the function with the batch and deletes what the mapping would delete; returns the deleted ids. Lambda
     * passes a batch's records "up to the payload limit for synchronous invocation (6 MB)": a batch whose event would
     * be larger is handed over in several invocations, in order, each as many records as fit.
     */
    public Set<String> process(List<Message> batch) throws InterruptedException {
        Set<String> deleted = new HashSet<>();
        List<Message> records = new ArrayList<>();
        for (Message message : batch) {
            records.add(message);
            if (records.size() > 1 && event(records).length > PayloadLimits.REQUEST_BYTES) {
                records.removeLast();
                deleted.addAll(invoke(records));
                records = new ArrayList<>(List.of(message));
            }
        }
        if (!records.isEmpty()) {
            deleted.addAll(invoke(records));
        }
        return deleted;
    }

    private byte[] event(List<Message> records) {
        return Json.bytes(SqsEvents.event(records, queue.arn(), queue.region()));
    }

    private Set<String> invoke(List<Message> batch) throws InterruptedException {
        InvocationResult result = function.invoke(event(batch), "SQS batch of " + batch.size());
        if (result.failed()) {
            return Set.of();
        }
        Set<String> failed;
        if (settings.reportBatchItemFailures()) {
            var reported = SqsEvents.reportedFailures(
                    result.payload(), batch.stream().map(Message::messageId).collect(Collectors.toSet()));
            if (reported.isEmpty()) {
                log.println("SQS " + function.name() + ": invalid batchItemFailures response; the whole batch is "
                        + "treated as failed");
                return Set.of();
            }
            failed = reported.get();
        } else {
            failed = Set.of();
        }
        return delete(
                batch.stream().filter(m -> !failed.contains(m.messageId())).toList());
    }

    private Set<String> delete(List<Message> messages) {
        if (messages.isEmpty()) {
            return Set.of();
        }
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(DeleteMessageBatchRequestEntry.builder()
                    .id(Integer.toString(i))
                    .receiptHandle(messages.get(i).receiptHandle())
                    .build());
        }
        var response = sqs.deleteMessageBatch(b -> b.queueUrl(queue.url()).entries(entries));
        Set<String> deleted = new HashSet<>();
        Set<String> failedEntries = new HashSet<>();
        response.failed().forEach(f -> {
            failedEntries.add(f.id());
            log.println("SQS " + function.name() + ": delete failed for entry " + f.id() + ": " + f.message());
        });
        for (int i = 0; i < messages.size(); i++) {
            if (!failedEntries.contains(Integer.toString(i))) {
                deleted.add(messages.get(i).messageId());
            }
        }
        return deleted;
    }

    @Override
    public synchronized void close() {
        running = false;
        pollers.forEach(Thread::interrupt);
    }
}
