package dev.pastebin.core.aws;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;

/**
 * The SQS client keeps the SDK's standard retries (sending, deleting and changing visibility are cheap and
 * safe to repeat: the worker is idempotent), but the whole call is bounded, so that a hung call cannot eat
 * the invocation: create's request, a visibility change of the worker, the sweeper's work on a dead letter.
 */
@Singleton
@Requires(classes = SqsClientBuilder.class)
public class SqsClientTuning implements BeanCreatedEventListener<SqsClientBuilder> {

    private final SqsProperties properties;

    public SqsClientTuning(SqsProperties properties) {
        this.properties = properties;
    }

    @Override
    public SqsClientBuilder onCreated(BeanCreatedEvent<SqsClientBuilder> event) {
        SqsClientBuilder builder = event.getBean();
        // Keep what the factory set (user agent, ...); only the call timeout changes.
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder()
                .apiCallTimeout(properties.callTimeout())
                .build());
        return builder;
    }
}
