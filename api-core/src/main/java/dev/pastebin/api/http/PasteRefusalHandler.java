package dev.pastebin.api.http;

import dev.pastebin.core.paste.PasteRefusal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ErrorResponseProcessorExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/** A refusal of the domain is answered with its code's status; {@link ApiErrorResponseProcessor} writes the body. */
@Singleton
public class PasteRefusalHandler extends ErrorResponseProcessorExceptionHandler<PasteRefusal> {

    public PasteRefusalHandler(ErrorResponseProcessor<?> responseProcessor) {
        super(responseProcessor);
    }

    @Override
    protected MutableHttpResponse<?> createResponse(PasteRefusal refusal) {
        return HttpResponse.status(ApiErrorCode.of(refusal).status());
    }
}
