package dev.pastebin.moderation.outbox;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.pastebin.core.moderation.OutboxMessage;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.context.ApplicationContext;
import io.micronaut.function.aws.MicronautRequestHandler;
import io.micronaut.serde.ObjectMapper;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The moderation outbox's consumer, outside the VPC (CloudFront's API and SNS have no endpoint in the stack's
 * NAT-less VPC): {@code invalidate} becomes a CloudFront CreateInvalidation on the stack's distribution (acknowledged
 * and logged when the edge is off), {@code delete-objects} a DeleteObjects of a taken-down paste's objects in the
 * paste bucket (the takedown committed, but S3 refused its own delete), {@code notify} an SNS Publish to the abuse
 * topic. A message that fails is reported as a batch item failure and comes back after the queue's visibility
 * timeout, up to the queue's maxReceiveCount, then goes to the DLQ; so does a malformed one (it will never succeed).
 */
public class ModerationOutboxHandler extends MicronautRequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = LoggerFactory.getLogger(ModerationOutboxHandler.class);

    @Inject
    ObjectMapper json;

    @Inject
    EdgeInvalidations invalidations;

    @Inject
    AbuseNotifications notifications;

    @Inject
    PasteContentStore contentStore;

    public ModerationOutboxHandler() {}

    public ModerationOutboxHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public SQSBatchResponse execute(SQSEvent event) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage record : event.getRecords()) {
            try {
                deliver(json.readValue(record.getBody(), OutboxMessage.class));
            } catch (Exception e) {
                LOG.warn("outbox message {} failed, it will be retried: {}", record.getMessageId(), e.toString());
                failures.add(new SQSBatchResponse.BatchItemFailure(record.getMessageId()));
            }
        }
        return new SQSBatchResponse(failures);
    }

    private void deliver(OutboxMessage message) {
        String kind = message.kind() == null ? "" : message.kind();
        switch (kind) {
            case OutboxMessage.INVALIDATE -> {
                if (message.paths() == null || message.paths().isEmpty() || message.reference() == null) {
                    throw new IllegalArgumentException("an invalidate message needs paths and a reference");
                }
                if (!invalidations.edgeOn()) {
                    LOG.info("edge is off: nothing to invalidate for {} ({})", message.reference(), message.paths());
                    return;
                }
                String id = invalidations.invalidate(message.paths(), message.reference());
                LOG.info(
                        "invalidation {} requested for {} ({} paths)",
                        id,
                        message.reference(),
                        message.paths().size());
            }
            case OutboxMessage.DELETE_OBJECTS -> {
                if (message.objects() == null || message.objects().isEmpty() || message.reference() == null) {
                    throw new IllegalArgumentException("a delete-objects message needs objects and a reference");
                }
                List<ContentLocation> objects = message.objects().stream()
                        .map(uri -> ContentLocation.parse(uri)
                                .orElseThrow(() -> new IllegalArgumentException("not an s3://bucket/key: " + uri)))
                        .toList();
                // absent keys count as deleted: a redelivered message, or an object already gone, succeeds
                contentStore.deleteAll(objects);
                LOG.info("objects of {} deleted: {}", message.reference(), objects);
            }
            case OutboxMessage.NOTIFY -> {
                if (message.subject() == null || message.message() == null) {
                    throw new IllegalArgumentException("a notify message needs a subject and a message");
                }
                if (!notifications.topicSet()) {
                    LOG.warn("no abuse topic set: notification {} dropped", message.reference());
                    return;
                }
                notifications.publish(message.subject(), message.message());
                LOG.info("notification {} published", message.reference());
            }
            default -> throw new IllegalArgumentException("unknown outbox message kind '" + kind + "'");
        }
    }
}
