package dev.pastebin.upload;

import dev.pastebin.core.failure.Failure;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * One log line per delivery of an upload job (docs/design.md, "Observability"), on the logger
 * {@code pastebin.upload.deliveries}, with its fields top-level in the JSON so CloudWatch Logs Insights queries
 * them. {@code delivery} is which delivery of the job it was (SQS's receive count), not the paste's S3 attempt:
 * a held delivery makes none. {@code shortCode} and {@code messageId} are the log context
 * {@link UploadPasteService} sets for the whole delivery, so every other line about the message has them too.
 * Never content.
 *
 * <pre>{"timestamp":"…","message":"delivery 2 of aB3xYz12: transient","requestId":"…","shortCode":"aB3xYz12",
 * "messageId":"…","delivery":2,"outcome":"transient","errorClass":"THROTTLING","s3Status":503,"latencyMs":41,
 * "delaySeconds":4,"detail":"S3Exception: SlowDown (HTTP 503): …",…}</pre>
 */
@Singleton
class DeliveryLog {

    private static final Logger LOG = LoggerFactory.getLogger("pastebin.upload.deliveries");

    void write(
            UploadDelivery delivery,
            Outcome outcome,
            @Nullable Failure failure,
            @Nullable Integer delaySeconds,
            @Nullable String detail) {
        LoggingEventBuilder event = LOG.atLevel(levelOf(outcome, failure))
                .addKeyValue("delivery", delivery.number().number())
                .addKeyValue("outcome", outcome.label())
                .addKeyValue("latencyMs", delivery.elapsedMillis());
        // absent rather than null when they do not apply to this outcome
        if (failure != null) {
            event = event.addKeyValue("errorClass", failure.errorClass().name());
            if (failure.s3Status() != null) {
                event = event.addKeyValue("s3Status", failure.s3Status());
            }
        }
        if (delaySeconds != null) {
            event = event.addKeyValue("delaySeconds", delaySeconds);
        }
        String described = detail != null ? detail : failure == null ? null : failure.message();
        if (described != null) {
            event = event.addKeyValue("detail", described);
        }
        event.log(
                "delivery {} of {}: {}",
                delivery.number().number(),
                delivery.shortCode() != null
                        ? delivery.shortCode()
                        : "message " + delivery.message().messageId(),
                outcome.label());
    }

    private static Level levelOf(Outcome outcome, @Nullable Failure failure) {
        if (failure != null && failure.unexpected()) {
            return Level.ERROR;
        }
        return switch (outcome) {
            case SUCCESS, DUPLICATE, REMOVED, TRANSIENT, HELD -> Level.INFO;
            case PERMANENT, GAVE_UP, SLOW, OVERDUE, POISON -> Level.WARN;
        };
    }
}
