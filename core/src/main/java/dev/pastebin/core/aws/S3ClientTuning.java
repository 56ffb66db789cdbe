package dev.pastebin.core.aws;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 client's retries and timeouts, pinned rather than the SDK's defaults (3 attempts, no time limit at
 * all): a hung connection must end in a classified TIMEOUT (503 for a reader) well inside the function's
 * timeout, and never hold a reveal's row lock until Lambda kills the function. The upload function replaces
 * this with its own tuning, since its queue is the retry layer.
 */
@Singleton
@Requires(classes = S3ClientBuilder.class)
public class S3ClientTuning implements BeanCreatedEventListener<S3ClientBuilder> {

    private final S3Properties properties;

    public S3ClientTuning(S3Properties properties) {
        this.properties = properties;
    }

    @Override
    public S3ClientBuilder onCreated(BeanCreatedEvent<S3ClientBuilder> event) {
        return pin(event.getBean(), properties.maxAttempts(), properties.attemptTimeout(), properties.callTimeout());
    }

    /**
     * Pins the builder's retries (the SDK's standard strategy with {@code maxAttempts}, or none for 1) and its
     * time limits, keeping what the factory set (user agent, ...).
     */
    public static S3ClientBuilder pin(
            S3ClientBuilder builder, int maxAttempts, Duration attemptTimeout, Duration callTimeout) {
        var retryStrategy = maxAttempts == 1
                ? AwsRetryStrategy.doNotRetry()
                : AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(maxAttempts)
                        .build();
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder()
                .retryStrategy(retryStrategy)
                .apiCallAttemptTimeout(attemptTimeout)
                .apiCallTimeout(callTimeout)
                .build());
        return builder;
    }
}
