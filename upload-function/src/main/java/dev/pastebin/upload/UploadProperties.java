package dev.pastebin.upload;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * How the upload worker runs a batch and talks to AWS, bound from {@code pastebin.upload.*}
 * (e.g. {@code PASTEBIN_UPLOAD_PARALLELISM}). When a job is delivered again is {@code pastebin.delivery.*}
 * ({@link dev.pastebin.core.delivery.DeliveryProperties}).
 *
 * @param parallelism         records of one batch uploaded at the same time; keep the datasource pool at
 *                            least this large
 * @param remainingTimeMargin no record is started when less than this remains of the invocation: it must
 *                            cover one record's worst case (40 s with the defaults: RecordTimeBudgetTest computes it from the configured timeouts)
 * @param s3MaxAttempts       attempts the S3 SDK makes per PutObject (1 = no SDK retries; see S3ClientTuning)
 * @param s3AttemptTimeout    time limit of one HTTP attempt to S3
 * @param s3CallTimeout       time limit of a whole S3 call, SDK retries included
 */
@ConfigurationProperties("pastebin.upload")
public record UploadProperties(
        @Min(1) @Max(100) @Bindable(defaultValue = "4") int parallelism,
        @NotNull @Bindable(defaultValue = "40s") Duration remainingTimeMargin,
        @Min(1) @Max(10) @Bindable(defaultValue = "1") int s3MaxAttempts,
        @NotNull @Bindable(defaultValue = "5s") Duration s3AttemptTimeout,
        @NotNull @Bindable(defaultValue = "10s") Duration s3CallTimeout) {

    public UploadProperties {
        if (s3AttemptTimeout != null && s3CallTimeout != null && s3AttemptTimeout.compareTo(s3CallTimeout) > 0) {
            throw new ConfigurationException("pastebin.upload.s3-attempt-timeout (" + s3AttemptTimeout
                    + ") must not exceed pastebin.upload.s3-call-timeout (" + s3CallTimeout + ")");
        }
    }
}
