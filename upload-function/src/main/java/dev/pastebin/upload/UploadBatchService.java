package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.lambda.InvocationDeadlines;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.upload.hold.HeldJobRelease;
import dev.pastebin.upload.hold.MessageVisibility;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one SQS batch: its records concurrently, at most {@code pastebin.upload.parallelism} at a time (on
 * virtual threads: the work is waiting on S3 and PostgreSQL), so a batch takes about as long as its slowest
 * record. Builds the partial batch response: exactly the records to redeliver are listed.
 *
 * <p>Before starting each record it checks the invocation's {@link Deadline}; below the margin it starts nothing more, makes the unstarted messages
 * visible again at once and reports them, so they come back promptly instead of dying with a timeout
 * that would fail the whole batch. It never throws for a per-record problem.
 *
 * <p>After the records, with time left, it continues a release of held jobs that the breaker's closing began and
 * nobody is carrying on ({@link HeldJobRelease#continuePending}).
 */
@Singleton
public class UploadBatchService {

    private static final Logger LOG = LoggerFactory.getLogger(UploadBatchService.class);

    private final UploadPasteService uploadService;
    private final HeldJobRelease release;
    private final MessageVisibility visibility;
    private final UploadProperties properties;
    private final InvocationDeadlines deadlines;
    private final Metrics metrics;

    UploadBatchService(
            UploadPasteService uploadService,
            HeldJobRelease release,
            MessageVisibility visibility,
            UploadProperties properties,
            InvocationDeadlines deadlines,
            Metrics metrics) {
        this.uploadService = uploadService;
        this.release = release;
        this.visibility = visibility;
        this.properties = properties;
        this.deadlines = deadlines;
        this.metrics = metrics;
    }

    /** One invocation: the batch, then its metrics written in one go. */
    public SQSBatchResponse process(SQSEvent event) {
        try {
            return processRecords(event);
        } finally {
            metrics.flush();
        }
    }

    private SQSBatchResponse processRecords(SQSEvent event) {
        List<SQSEvent.SQSMessage> records =
                event == null || event.getRecords() == null ? List.of() : event.getRecords();
        Deadline deadline = deadlines.current(properties.remainingTimeMargin());
        var failures = new ArrayList<SQSBatchResponse.BatchItemFailure>();
        var started = new ArrayList<Started>();
        var unstarted = new ArrayList<UploadMessage>();
        var slots = new Semaphore(properties.parallelism());
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < records.size(); i++) {
                UploadMessage message = UploadMessage.of(records.get(i));
                if (!acquire(slots) || !deadline.allowsMoreWork()) {
                    records.subList(i, records.size()).forEach(r -> unstarted.add(UploadMessage.of(r)));
                    break;
                }
                // the record's lines carry the invocation's log context (request id, function name)
                started.add(new Started(message, executor.submit(LogContext.carried(() -> {
                    try {
                        return uploadService.upload(message);
                    } finally {
                        slots.release();
                    }
                }))));
            }
            for (Started record : started) {
                if (outcomeOf(record).redeliver()) {
                    failures.add(new SQSBatchResponse.BatchItemFailure(
                            record.message().messageId()));
                }
            }
        }
        if (!unstarted.isEmpty()) {
            LOG.warn(
                    "{} ms left, below the margin of {} ms: {} of {} records not started, returned to the queue",
                    deadline.remainingMillis(),
                    deadline.margin().toMillis(),
                    unstarted.size(),
                    records.size());
            visibility.releaseNow(unstarted);
            unstarted.forEach(m -> failures.add(new SQSBatchResponse.BatchItemFailure(m.messageId())));
        }
        release.continuePending(deadline);
        return new SQSBatchResponse(failures);
    }

    private static boolean acquire(Semaphore slots) {
        try {
            slots.acquire();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The upload service never throws; if it did anyway (a bug), the message is redelivered, not lost. */
    private static Outcome outcomeOf(Started record) {
        try {
            return record.outcome().get();
        } catch (ExecutionException e) {
            LOG.error(
                    "upload of message {} failed unexpectedly; reporting it for redelivery",
                    record.message().messageId(),
                    e.getCause());
            return Outcome.TRANSIENT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.TRANSIENT;
        }
    }

    private record Started(UploadMessage message, Future<Outcome> outcome) {}
}
