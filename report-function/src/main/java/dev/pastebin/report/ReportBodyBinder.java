package dev.pastebin.report;

import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.function.aws.proxy.ApiGatewayServletRequest;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Binds {@link ReportBody} arguments: the body's bytes as the API Gateway event carries them, whatever the
 * Content-Type, as the create function binds its bodies. Micronaut's own form binding behind the API Gateway
 * proxy parses a form as a query string and turns a malformed escape into U+FFFD; {@link ReportBodyReader} reads
 * the bytes strictly instead.
 */
@Singleton
class ReportBodyBinder implements TypedRequestArgumentBinder<ReportBody> {

    private static final Argument<ReportBody> TYPE = Argument.of(ReportBody.class);

    @Override
    public Argument<ReportBody> argumentType() {
        return TYPE;
    }

    @Override
    public BindingResult<ReportBody> bind(ArgumentConversionContext<ReportBody> context, HttpRequest<?> source) {
        ReportBody body = new ReportBody(bodyBytes(source));
        return () -> Optional.of(body);
    }

    private static byte[] bodyBytes(HttpRequest<?> source) {
        if (source instanceof ApiGatewayServletRequest<?, ?, ?> gateway) {
            try {
                return gateway.getBodyBytes();
            } catch (ApiGatewayServletRequest.EmptyBodyException e) {
                return new byte[0];
            }
        }
        throw new IllegalStateException("bodies are read from API Gateway events only, not "
                + source.getClass().getName());
    }
}
