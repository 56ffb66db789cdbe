package dev.pastebin.sweeper;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.pastebin.core.lambda.InvocationDeadlines;
import io.micronaut.context.ApplicationContext;
import io.micronaut.function.aws.MicronautRequestHandler;
import jakarta.inject.Inject;

/**
 * Entry point of the sweep, triggered every 5 minutes by an EventBridge schedule. It reports the age of the
 * oldest pending paste ({@link OldestInProgressGauge}) first, so that a sweep that fails still reports it, then
 * wires the Lambda deadline into {@link SweepService}; the event itself carries nothing the sweep needs.
 */
public class SweeperHandler extends MicronautRequestHandler<ScheduledEvent, SweepReport> {

    @Inject
    SweepService sweepService;

    @Inject
    SweeperProperties properties;

    @Inject
    InvocationDeadlines deadlines;

    @Inject
    OldestInProgressGauge oldestInProgress;

    public SweeperHandler() {}

    public SweeperHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public SweepReport execute(ScheduledEvent event) {
        oldestInProgress.report();
        return sweepService.sweep(deadlines.current(properties.stopMargin()));
    }
}
