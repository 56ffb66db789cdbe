package dev.pastebin.api.http;

import dev.pastebin.core.failure.DependencyUnavailableException;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ErrorResponseProcessorExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/** A dependency that is down is a 503 with {@code Retry-After}, not a 500 (the processor adds the header). */
@Singleton
public class DependencyUnavailableHandler
        extends ErrorResponseProcessorExceptionHandler<DependencyUnavailableException> {

    public DependencyUnavailableHandler(ErrorResponseProcessor<?> responseProcessor) {
        super(responseProcessor);
    }

    @Override
    protected MutableHttpResponse<?> createResponse(DependencyUnavailableException exception) {
        return HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE);
    }
}
