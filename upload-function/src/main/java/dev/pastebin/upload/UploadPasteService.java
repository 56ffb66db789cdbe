package dev.pastebin.upload;

import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.logging.LogContext;
import jakarta.inject.Singleton;

/**
 * The use case "upload one paste": one delivery of one upload job, from IN_PROGRESS to PROCESSED or FAILED
 * (docs/design.md, "States"), under at-least-once delivery. {@link PasteUploader} stores the job;
 * {@link DeliveryOutcomes} turns how that ended, or how it failed, into the {@link Outcome} that says whether
 * the message is reported for redelivery or acknowledged. It never throws.
 *
 * <p>Every line logged meanwhile names the message ({@code messageId}) and, once the job is decoded, the paste
 * ({@code shortCode}).
 */
@Singleton
public class UploadPasteService {

    private final UploadJobCodec codec;
    private final PasteUploader uploader;
    private final DeliveryOutcomes outcomes;

    UploadPasteService(UploadJobCodec codec, PasteUploader uploader, DeliveryOutcomes outcomes) {
        this.codec = codec;
        this.uploader = uploader;
        this.outcomes = outcomes;
    }

    Outcome upload(UploadMessage message) {
        try (var ignored = LogContext.forMessage(message.messageId())) {
            UploadDelivery delivery = UploadDelivery.begin(message);
            UploadJob job;
            try {
                job = codec.decode(message.body());
            } catch (MalformedUploadJobException e) {
                return outcomes.poison(delivery, e.getMessage());
            }
            LogContext.forPaste(job.shortCode());
            delivery = delivery.forPaste(job.shortCode());
            try {
                return outcomes.stored(delivery, uploader.store(job, message.receiptHandle()));
            } catch (RuntimeException e) {
                return outcomes.failed(delivery, e);
            }
        }
    }
}
