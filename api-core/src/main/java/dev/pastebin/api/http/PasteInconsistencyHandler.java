package dev.pastebin.api.http;

import dev.pastebin.core.storage.PasteInconsistencyException;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ErrorResponseProcessorExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/** 500 in the API's error shape; the store has already logged the inconsistency once, with the short code. */
@Singleton
public class PasteInconsistencyHandler extends ErrorResponseProcessorExceptionHandler<PasteInconsistencyException> {

    public PasteInconsistencyHandler(ErrorResponseProcessor<?> responseProcessor) {
        super(responseProcessor);
    }

    @Override
    protected MutableHttpResponse<?> createResponse(PasteInconsistencyException exception) {
        return HttpResponse.serverError();
    }
}
