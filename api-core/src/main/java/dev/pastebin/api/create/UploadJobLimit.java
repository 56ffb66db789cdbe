package dev.pastebin.api.create;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Checked when the function starts: the largest paste it accepts, as an upload job, fits the queue's
 * {@code MaximumMessageSize}. Otherwise every paste above the queue's limit would be accepted, refused by
 * SendMessage and marked FAILED, and its author told to try again with the same content.
 */
@Context
@Requires(classes = SqsClient.class) // checked where pastes are created
class UploadJobLimit {

    UploadJobLimit(PasteProperties paste, UploadQueueProperties queue) {
        int largestJob = UploadJobCodec.maxEncodedSize(paste.maxContentBytes());
        if (largestJob > queue.maximumMessageSize()) {
            throw new ConfigurationException("pastebin.paste.max-content-bytes (" + paste.maxContentBytes()
                    + ") makes upload jobs of up to " + largestJob
                    + " bytes, more than the upload queue's MaximumMessageSize ("
                    + queue.maximumMessageSize()
                    + ", pastebin.upload-queue.maximum-message-size): lower the limit or raise "
                    + "the queue's MaximumMessageSize with it");
        }
    }
}
