package dev.pastebin.local.lambda;

/**
 * A function the event sources invoke synchronously (RequestResponse), as Lambda's Invoke API does: the
 * result is the response payload or the error document.
 */
public interface LambdaFunction {

    String name();

    /**
     * @param event   the event JSON
     * @param trigger what caused the invocation, for the log line (e.g. "GET /pastes/abc")
     */
    InvocationResult invoke(byte[] event, String trigger) throws InterruptedException;
}
