package dev.pastebin.core.storage;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * Large pastes, whose files go straight to S3 (docs/design.md, "Large files: straight to S3"). Bound from
 * {@code pastebin.large-files.*} ({@code PASTEBIN_LARGE_FILES_MAX_FILE_BYTES}, ...; the template's parameters).
 *
 * @param maxFileBytes   the largest file a create may declare (a single PUT takes up to 5 GB)
 * @param maxFiles       files in one paste
 * @param maxTotalBytes  all of a paste's files together
 * @param uploadWindow   how long a create's pre-signed PUTs are valid, and so how long its files may take to arrive
 * @param readLinkValidity how long a read's pre-signed GET is valid: enough to start the download, short enough
 *                       that a link passed on dies soon after a takedown or a delete
 * @param stagingPrefix  where the clients' PUTs land; the bucket notifies the upload queue of objects created here
 * @param filesPrefix    where verified files are kept (outside the small pastes' prefix, whose keys the orphan sweep
 *                       reads as short codes)
 */
@ConfigurationProperties("pastebin.large-files")
public record LargeFileProperties(
        @Min(1) @Max(LargeFileProperties.SINGLE_PUT_LIMIT) @Bindable(defaultValue = "104857600")
        long maxFileBytes,

        @Min(1) @Max(100) @Bindable(defaultValue = "10") int maxFiles,

        @Min(1) @Max(Integer.MAX_VALUE) @Bindable(defaultValue = "524288000")
        long maxTotalBytes,

        @NotNull @Bindable(defaultValue = "15m") Duration uploadWindow,
        @NotNull @Bindable(defaultValue = "5m") Duration readLinkValidity,
        @NotBlank @Bindable(defaultValue = "staging/") String stagingPrefix,
        @NotBlank @Bindable(defaultValue = "files/") String filesPrefix) {

    /** S3's largest single PUT (and CopyObject): 5 GB. */
    public static final long SINGLE_PUT_LIMIT = 5L * 1024 * 1024 * 1024;

    /** A pre-signed URL signed with a role's session credentials lives at most 7 days, and S3 caps it there too. */
    static final Duration PRESIGN_CEILING = Duration.ofDays(7);

    public LargeFileProperties {
        for (Duration d : new Duration[] {uploadWindow, readLinkValidity}) {
            if (d != null && (d.isNegative() || d.isZero() || d.compareTo(PRESIGN_CEILING) > 0)) {
                throw new ConfigurationException(
                        "pastebin.large-files upload-window and read-link-validity must be above 0 and at most 7 days: "
                                + d);
            }
        }
    }
}
