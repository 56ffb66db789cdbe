package dev.pastebin.upload;

import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.S3Notifications;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.PasteFile;
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
    private final S3Notifications notifications;
    private final StagedFileVerifier verifier;
    private final DeliveryOutcomes outcomes;

    UploadPasteService(
            UploadJobCodec codec,
            PasteUploader uploader,
            S3Notifications notifications,
            StagedFileVerifier verifier,
            DeliveryOutcomes outcomes) {
        this.codec = codec;
        this.uploader = uploader;
        this.notifications = notifications;
        this.verifier = verifier;
        this.outcomes = outcomes;
    }

    Outcome upload(UploadMessage message) {
        try (var ignored = LogContext.forMessage(message.messageId())) {
            UploadDelivery delivery = UploadDelivery.begin(message);
            var notification = notifications.parse(message.body());
            if (notification.isPresent()) {
                return verifyStaged(delivery, notification.get());
            }
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

    /**
     * S3's notification that a large paste's file arrived in the staging prefix (docs/design.md, "Large files:
     * straight to S3"): the file verified and moved, through the same outcomes as an upload job. S3 sends one record
     * per message; S3's test event, sent when the notification is configured, needs nothing.
     */
    private Outcome verifyStaged(UploadDelivery delivery, S3Notifications.Notification notification) {
        if (notification.testEvent()) {
            return outcomes.stored(delivery, new StoreResult.AlreadyTerminal("S3's test event: nothing to verify"));
        }
        if (notification.objects().size() != 1) {
            return outcomes.poison(
                    delivery, "an S3 notification of " + notification.objects().size() + " objects, not one");
        }
        S3Notifications.CreatedObject object = notification.objects().getFirst();
        var fileId = verifier.fileIdOf(object.bucket(), object.key());
        if (fileId.isEmpty()) {
            return outcomes.stored(
                    delivery,
                    new StoreResult.AlreadyTerminal("s3://" + object.bucket() + "/" + object.key()
                            + " is no staged file of this bucket: nothing to verify"));
        }
        String shortCode = PasteFile.shortCodeOf(fileId.get());
        LogContext.forPaste(shortCode);
        UploadDelivery forPaste = delivery.forPaste(shortCode);
        try {
            return outcomes.stored(forPaste, verifier.verify(fileId.get()));
        } catch (RuntimeException e) {
            return outcomes.failed(forPaste, e);
        }
    }
}
