package dev.pastebin.core.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Limits of a paste. Bound from {@code pastebin.paste.*}. A short code is the only secret of an unlisted
 * paste, so it has at least 11 base62 characters (65.5 bits; {@code ShortCodes} still accepts the older 8). The content limit is capped so that the
 * largest paste, base64-encoded in its upload job, always fits an SQS message (see {@code UploadJobCodec}).
 */
@ConfigurationProperties("pastebin.paste")
public record PasteProperties(
        @Min(11) @Max(32) @Bindable(defaultValue = "11") int shortCodeLength,
        @Min(1) @Max(PasteProperties.MAX_CONTENT_BYTES_CAP) @Bindable(defaultValue = "262144") int maxContentBytes) {

    /** The largest content whose base64 upload job (plus its envelope) fits SQS's 1 MiB message ceiling. */
    public static final int MAX_CONTENT_BYTES_CAP = 3 * (1_048_576 - 256) / 4;
}
