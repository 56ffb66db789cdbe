package dev.pastebin.sweeper;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;

import java.time.Duration;

/**
 * Bounds each SQS call, the SDK's standard retries included, so that the work on one dead letter (a send and a
 * delete) fits the sweeper's 15 s stop margin: a hung call must not run the invocation into its timeout.
 */
@Singleton
class SqsClientTuning implements BeanCreatedEventListener<SqsClientBuilder> {

    static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public SqsClientBuilder onCreated(BeanCreatedEvent<SqsClientBuilder> event) {
        SqsClientBuilder builder = event.getBean();
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder()
                .apiCallTimeout(API_CALL_TIMEOUT)
                .build());
        return builder;
    }
}
