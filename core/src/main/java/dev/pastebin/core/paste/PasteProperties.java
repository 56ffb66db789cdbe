package dev.pastebin.core.paste;

import dev.pastebin.core.job.UploadJobCodec;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Limits of a paste. Bound from {@code pastebin.paste.*}. A short code is the only secret of an unlisted
 * paste, so it has at least 11 base62 characters (65.5 bits; {@code ShortCodes} still accepts the older 8). The content
 * limit is, by default and at most, the largest paste whose upload job (base64 in its envelope) fits SQS's 1 MiB
 * message ceiling ({@link UploadJobCodec#LARGEST_CONTENT_BYTES}); a smaller limit is a deployment's choice.
 */
@ConfigurationProperties("pastebin.paste")
public record PasteProperties(
        @Min(ShortCodes.MIN_LENGTH) @Max(32) @Bindable(defaultValue = "11")
        int shortCodeLength,

        @Min(1)
        @Max(PasteProperties.MAX_CONTENT_BYTES_CAP)
        @Bindable(defaultValue = "" + PasteProperties.MAX_CONTENT_BYTES_CAP)
        int maxContentBytes) {

    /** The largest content whose base64 upload job (plus its envelope) fits SQS's 1 MiB message ceiling. */
    public static final int MAX_CONTENT_BYTES_CAP = UploadJobCodec.LARGEST_CONTENT_BYTES;
}
