package dev.pastebin.upload;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Release on close (docs/design.md, "Circuit breaker"), bound from {@code pastebin.upload.release.*}
 * (e.g. {@code PASTEBIN_UPLOAD_RELEASE_RATE=400}).
 *
 * @param enabled off: held jobs come back at their holds' ends only
 * @param rate    uploads a second the fleet drains (event source mapping concurrency x parallelism / one upload's
 *                time): the released jobs are made visible at this pace, so the queue offers no more than the
 *                mapping takes. 200 is the top of what 20 uploads in flight drained locally (90-230 a second,
 *                docs/scale.md "The herd after an outage")
 */
@ConfigurationProperties("pastebin.upload.release")
public record ReleaseProperties(
        @Bindable(defaultValue = "true") boolean enabled,

        @Min(1) @Max(100_000) @Bindable(defaultValue = "200")
        int rate) {}
