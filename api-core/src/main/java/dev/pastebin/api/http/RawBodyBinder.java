package dev.pastebin.api.http;

import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.function.aws.proxy.ApiGatewayServletRequest;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Binds {@link RawBody} arguments: the body's bytes as the API Gateway event carries them (base64-decoded when
 * API Gateway passed them so, as it does a multipart body), whatever the Content-Type. Micronaut's own form binding cannot be used behind the
 * API Gateway proxy: it parses every form body, multipart too, as a query string, so a multipart paste with a
 * {@code %} in it fails the request before the controller runs, and a malformed escape becomes U+FFFD. A route
 * binding it must not bind query values or a {@code @Body} for a form (both would start that parse).
 */
@Singleton
// Only the HTTP functions carry API Gateway's proxy: elsewhere (the upload, sweeper and moderation functions) this
// binder's class could not even be loaded when Micronaut builds its binder registry, and their Init would fail.
public class RawBodyBinder implements TypedRequestArgumentBinder<RawBody> {

    private static final Argument<RawBody> TYPE = Argument.of(RawBody.class);

    @Override
    public Argument<RawBody> argumentType() {
        return TYPE;
    }

    @Override
    public BindingResult<RawBody> bind(ArgumentConversionContext<RawBody> context, HttpRequest<?> source) {
        RawBody body = new RawBody(bodyBytes(source));
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
