package dev.pastebin.api.http;

import io.micronaut.http.exceptions.HttpStatusException;

/**
 * A request the API answers with an error of its own: the code, a message safe to show (never content, SQL or
 * resource names). As an {@link HttpStatusException} it goes through Micronaut's status handler to
 * {@link ApiErrorResponseProcessor}, like the errors the framework raises itself.
 */
public class ApiException extends HttpStatusException {

    private final ApiErrorCode code;

    public ApiException(ApiErrorCode code, String message) {
        super(code.status(), message);
        this.code = code;
    }

    public ApiErrorCode code() {
        return code;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // an expected answer, not a fault: no stack to capture or log
        return this;
    }
}
