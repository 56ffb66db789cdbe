package dev.pastebin.upload;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 client's own retries and timeouts, set deliberately so that retry layers do not multiply.
 *
 * <p>The queue is the retry layer: each delivery makes at most one S3 attempt, backed off by visibility
 * timeout and counted on the paste's row. If the SDK also retried (its default is 3 attempts with its
 * own backoff), a 6-attempt schedule would make up to 18 PUTs, an attempt's latency would hide up to two
 * extra waits, and a throttled S3 would be hit harder exactly when it asked us to slow down. So by
 * default the SDK makes one attempt ({@code pastebin.upload.s3-max-attempts: 1}); the attempt timeout
 * (5 s) and the call timeout (10 s) bound a hung connection well inside the function timeout and below
 * the remaining-time margin, so a slow S3 becomes a classified TIMEOUT and a scheduled retry, not a
 * Lambda timeout that fails the whole batch.
 */
@Singleton
@Replaces(dev.pastebin.core.aws.S3ClientTuning.class)
class S3ClientTuning implements BeanCreatedEventListener<S3ClientBuilder> {

    private final UploadProperties properties;

    S3ClientTuning(UploadProperties properties) {
        this.properties = properties;
    }

    @Override
    public S3ClientBuilder onCreated(BeanCreatedEvent<S3ClientBuilder> event) {
        return dev.pastebin.core.aws.S3ClientTuning.pin(
                event.getBean(), properties.s3MaxAttempts(), properties.s3AttemptTimeout(), properties.s3CallTimeout());
    }
}
