package dev.pastebin.local.lambda;

/**
 * Receives each line a function process writes to stdout or stderr (its "CloudWatch log"), after the line
 * has been copied to the runtime's log. Called from the function's log thread: an implementation must be
 * quick and thread-safe, and must not throw.
 */
@FunctionalInterface
public interface FunctionOutput {

    /** @param function the function's name (its logical id) */
    void line(String function, String line);

    /**
     * Called once per invocation when it ended, with its result (an Init failure, a crash and a timeout are
     * failed results): what Lambda itself counts for a function, outside its log.
     */
    default void invoked(String function, InvocationResult result) {}
}
