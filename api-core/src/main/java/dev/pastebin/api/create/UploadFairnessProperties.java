package dev.pastebin.api.create;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The upload fairness delay (docs/design.md, "Fair to every client"; template parameter {@code UploadFairnessDelay}):
 * a create whose client already has more than {@code backlog} pastes IN_PROGRESS sends its upload job with a
 * {@code DelaySeconds} that places it behind the quiet clients' jobs. Bound from {@code pastebin.upload-fairness.*};
 * only the functions that create are given it.
 *
 * @param enabled         off by default: on AWS the upload queue is an SQS fair queue, which serves quiet clients
 *                        first without it; on, each create runs one indexed count of its client's backlog
 * @param backlog         a client's pastes IN_PROGRESS (queued, delayed, in flight or held) beyond which its next
 *                        jobs are delayed; up to this many are sent at once, as without the delay
 * @param jobsPerSecond   the rate at which a client's jobs beyond {@code backlog} are made visible: the k-th beyond
 *                        it waits k ÷ this many seconds
 * @param maxDelaySeconds the longest delay, at most SQS's 900 s: beyond {@code backlog + jobsPerSecond × this}, a
 *                        client's jobs all wait this long (the order among them is then the queue's)
 */
@ConfigurationProperties("pastebin.upload-fairness")
public record UploadFairnessProperties(
        @Bindable(defaultValue = "false") boolean enabled,
        @Min(0) @Bindable(defaultValue = "100") int backlog,
        @DecimalMin("0.001") @Bindable(defaultValue = "20") double jobsPerSecond,
        @Min(1) @Max(900) @Bindable(defaultValue = "900") int maxDelaySeconds) {

    /**
     * The {@code DelaySeconds} of a job whose client has {@code pending} other pastes IN_PROGRESS: 0 up to the
     * backlog, then one more second per {@code jobsPerSecond} jobs beyond it, up to the longest delay.
     */
    public int delaySeconds(long pending) {
        long beyond = pending - backlog;
        if (!enabled || beyond <= 0) {
            return 0;
        }
        return (int) Math.min(maxDelaySeconds, (long) Math.ceil(beyond / jobsPerSecond));
    }
}
