package dev.pastebin.core.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * The {@link Deadline} of the invocation being handled, from its Lambda {@link Context} ({@link CurrentInvocation}).
 * Outside Lambda (no Context) there is no deadline.
 */
@Singleton
public class InvocationDeadlines {

    private final CurrentInvocation invocation;

    public InvocationDeadlines(CurrentInvocation invocation) {
        this.invocation = invocation;
    }

    /** The current invocation's deadline, keeping {@code margin} in reserve. */
    public Deadline current(Duration margin) {
        return invocation
                .context()
                .map(context -> new Deadline(context::getRemainingTimeInMillis, margin))
                .orElseGet(Deadline::none);
    }
}
