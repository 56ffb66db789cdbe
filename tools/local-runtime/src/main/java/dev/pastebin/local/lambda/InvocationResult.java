package dev.pastebin.local.lambda;

import dev.pastebin.local.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What Lambda's Invoke API returns: the response payload, or (when {@code functionError} is set, as in the
 * {@code X-Amz-Function-Error} header) the error document {@code {"errorMessage","errorType",...}}.
 *
 * @param coldStart whether this invocation had to start the function's process (an init phase)
 */
public record InvocationResult(
        String requestId, byte[] payload, String functionError, Duration duration, boolean coldStart) {

    /** A failure the runtime reports itself (timeout, crash, init error): Lambda's error document. */
    static InvocationResult error(String requestId, String errorType, String message, Duration duration, boolean cold) {
        var document = Json.object().put("errorType", errorType).put("errorMessage", message);
        return new InvocationResult(requestId, Json.bytes(document), "Unhandled", duration, cold);
    }

    public boolean failed() {
        return functionError != null;
    }

    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** The errorType of a failed invocation's error document, for log lines. */
    public String errorType() {
        var json = Json.parseOrNull(payload);
        return json != null && json.hasNonNull("errorType")
                ? json.get("errorType").asText()
                : functionError;
    }
}
