package dev.pastebin.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Any;
import io.micronaut.function.aws.MicronautRequestHandler;
import jakarta.inject.Inject;

/**
 * Entry point of the daily sweep, triggered by an EventBridge schedule. It only wires the Lambda deadline
 * into {@link SweepService}; the event itself carries nothing the sweep needs.
 */
public class SweeperHandler extends MicronautRequestHandler<ScheduledEvent, SweepReport> {

    @Inject
    SweepService sweepService;

    @Inject
    SweeperProperties properties;

    // Registered per invocation by MicronautRequestHandler before execute() runs.
    @Inject
    @Any
    BeanProvider<Context> lambdaContext;

    public SweeperHandler() {
    }

    public SweeperHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public SweepReport execute(ScheduledEvent event) {
        Deadline deadline = lambdaContext.isPresent()
                ? new Deadline(lambdaContext.get()::getRemainingTimeInMillis, properties.stopMargin())
                : Deadline.none();
        return sweepService.sweep(deadline);
    }
}
