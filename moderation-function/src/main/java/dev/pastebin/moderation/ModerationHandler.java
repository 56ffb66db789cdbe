package dev.pastebin.moderation;

import dev.pastebin.core.metrics.Metrics;
import io.micronaut.context.ApplicationContext;
import io.micronaut.function.aws.MicronautRequestHandler;
import jakarta.inject.Inject;

/**
 * The operator's function: no HTTP route, invoked with IAM credentials ({@code aws lambda invoke}, wrapped by
 * {@code infra/admin}) with a {@link ModerationCommand}; answers a {@link ModerationAnswer}.
 */
public class ModerationHandler extends MicronautRequestHandler<ModerationCommand, ModerationAnswer> {

    @Inject
    ModerationService service;

    @Inject
    Metrics metrics;

    public ModerationHandler() {}

    public ModerationHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public ModerationAnswer execute(ModerationCommand command) {
        try {
            return service.handle(command);
        } finally {
            metrics.flush();
        }
    }
}
