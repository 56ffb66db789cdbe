package dev.pastebin.core.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Any;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * The {@link Deadline} of the invocation being handled: MicronautRequestHandler registers the Lambda
 * {@link Context} of each invocation as a bean before {@code execute} runs. Outside Lambda (no Context)
 * there is no deadline.
 */
@Singleton
public class InvocationDeadlines {

    private final BeanProvider<Context> lambdaContext;

    public InvocationDeadlines(@Any BeanProvider<Context> lambdaContext) {
        this.lambdaContext = lambdaContext;
    }

    /** The current invocation's deadline, keeping {@code margin} in reserve. */
    public Deadline current(Duration margin) {
        if (!lambdaContext.isPresent()) {
            return Deadline.none();
        }
        Context context = lambdaContext.get();
        return new Deadline(context::getRemainingTimeInMillis, margin);
    }
}
