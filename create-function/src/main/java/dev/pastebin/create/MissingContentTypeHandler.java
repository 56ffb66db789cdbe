package dev.pastebin.create;

import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.DuplicateRouteHandler;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.web.router.exceptions.DuplicateRouteException;
import jakarta.inject.Singleton;

/**
 * The two {@code POST /pastes} routes differ only in what they consume, so a body without a Content-Type
 * matches both and Micronaut reports a duplicate route (a generic 400). Here that means one thing: say which
 * Content-Types are accepted.
 */
@Singleton
@Replaces(DuplicateRouteHandler.class)
public class MissingContentTypeHandler implements ExceptionHandler<DuplicateRouteException, HttpResponse<?>> {

    private final ErrorResponseProcessor<?> processor;

    public MissingContentTypeHandler(ErrorResponseProcessor<?> processor) {
        this.processor = processor;
    }

    @Override
    public HttpResponse<?> handle(HttpRequest request, DuplicateRouteException exception) {
        var missing = new ApiException(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE,
                "Send the paste with Content-Type: text/plain; charset=utf-8 or application/json");
        return processor.processResponse(ErrorContext.builder(request).cause(missing).build(),
                HttpResponse.status(missing.getStatus()));
    }
}
