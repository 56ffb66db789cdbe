package dev.pastebin.core.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The Lambda {@link Context} of the invocation an execution environment is handling: set before any work of each
 * invocation ({@link CurrentInvocationFactory}), read by whatever needs the invocation's deadline or identity. An
 * environment handles one invocation at a time; the field is volatile because a batch's records run on worker
 * threads.
 */
@Singleton
public class CurrentInvocation {

    private volatile Context context;

    /** The invocation {@code context} begins; it replaces the previous one. */
    public void begin(Context context) {
        this.context = context;
    }

    /** The current invocation's Context; empty outside Lambda (a test, a local run of a service). */
    public Optional<Context> context() {
        return Optional.ofNullable(context);
    }
}
