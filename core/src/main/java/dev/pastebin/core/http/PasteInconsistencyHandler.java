package dev.pastebin.core.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.pastebin.core.storage.PasteInconsistencyException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ErrorResponseProcessorExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/** 500 in the API's error shape; the store has already logged the inconsistency once, with the short code. */
@Singleton
@Requires(classes = {ErrorResponseProcessor.class, APIGatewayV2HTTPEvent.class})
public class PasteInconsistencyHandler extends ErrorResponseProcessorExceptionHandler<PasteInconsistencyException> {

    public PasteInconsistencyHandler(ErrorResponseProcessor<?> responseProcessor) {
        super(responseProcessor);
    }

    @Override
    protected MutableHttpResponse<?> createResponse(PasteInconsistencyException exception) {
        return HttpResponse.serverError();
    }
}
