package dev.pastebin.api.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.pastebin.core.logging.LogContext;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.servlet.http.ServletHttpRequest;
import org.slf4j.MDC;

/** The id a client quotes to find its request in the logs. */
public final class RequestIds {

    /** Shown when a request carries neither an API Gateway nor a Lambda request id (never on AWS). */
    public static final String UNKNOWN = "unknown";

    private RequestIds() {}

    /**
     * API Gateway's request id (also in its access logs) when the request came as an API Gateway v2 event,
     * otherwise the Lambda invocation's request id from the log context.
     */
    public static String of(@Nullable HttpRequest<?> request) {
        if (request instanceof ServletHttpRequest<?, ?> servlet
                && servlet.getNativeRequest() instanceof APIGatewayV2HTTPEvent event
                && event.getRequestContext() != null
                && event.getRequestContext().getRequestId() != null
                && !event.getRequestContext().getRequestId().isBlank()) {
            return event.getRequestContext().getRequestId();
        }
        String lambdaRequestId = MDC.get(LogContext.REQUEST_ID);
        return lambdaRequestId == null || lambdaRequestId.isBlank() ? UNKNOWN : lambdaRequestId;
    }
}
