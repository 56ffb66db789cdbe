package dev.pastebin.local;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What Lambda's Invoke API returns: the response payload, or (when {@code functionError} is set, as in the
 * {@code X-Amz-Function-Error} header) the error document {@code {"errorMessage","errorType",...}}.
 *
 * @param coldStart whether this invocation had to start the function's process (an init phase)
 */
public record InvocationResult(String requestId, byte[] payload, String functionError, Duration duration,
                               boolean coldStart) {

    public boolean failed() {
        return functionError != null;
    }

    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
