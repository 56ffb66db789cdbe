package dev.pastebin.upload;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;

/**
 * The SQS client keeps the SDK's standard retries: ChangeMessageVisibility is idempotent and cheap, and
 * a failed one costs a whole queue visibility timeout. Only the total time is bounded, so that a hung
 * call cannot eat the invocation.
 */
@Singleton
class SqsClientTuning implements BeanCreatedEventListener<SqsClientBuilder> {

    private final UploadProperties properties;

    SqsClientTuning(UploadProperties properties) {
        this.properties = properties;
    }

    @Override
    public SqsClientBuilder onCreated(BeanCreatedEvent<SqsClientBuilder> event) {
        SqsClientBuilder builder = event.getBean();
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder()
                .apiCallTimeout(properties.sqsCallTimeout())
                .build());
        return builder;
    }
}
