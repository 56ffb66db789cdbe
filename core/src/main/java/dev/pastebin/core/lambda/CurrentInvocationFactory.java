package dev.pastebin.core.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.function.aws.DefaultLambdaContextFactory;
import io.micronaut.function.aws.LambdaContextFactory;
import jakarta.inject.Singleton;

/**
 * Hands each invocation's Lambda Context to {@link CurrentInvocation}. Both kinds of Micronaut handler call this
 * bean before any work ({@code HandlerUtils.configureWithContext}): {@code MicronautRequestHandler} (upload,
 * sweeper, moderation) and {@code APIGatewayV2HTTPEventFunction} (the HTTP functions).
 *
 * <p>Micronaut's own factory registers the Context, its logger and its client context as singleton beans at every
 * invocation: one more bean definition each time, which every later bean lookup walks through and every later
 * registration copies. A warm environment's requests then cost more the more it has served: the create function's
 * invocations went from 29 to 56 ms p50 over 20,000 creates while its own work stayed at 16 to 18 ms
 * (docs/scale.md). No bean here needs those beans: the deadline reads the Context from here, and the log context
 * gets it from the handler ({@code InvocationLogContext}).
 */
@Singleton
@Replaces(DefaultLambdaContextFactory.class)
@Requires(classes = LambdaContextFactory.class)
public class CurrentInvocationFactory implements LambdaContextFactory {

    private final CurrentInvocation invocation;

    public CurrentInvocationFactory(CurrentInvocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public void registerSingletons(Context context) {
        invocation.begin(context);
    }
}
