package dev.pastebin.create;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.http.BearerCredentials;
import dev.pastebin.api.http.EdgeRequests;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import io.micronaut.servlet.http.ServletHttpRequest;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;

/**
 * Binds {@link Caller} arguments from the API Gateway (HTTP API, payload 2.0) event behind the request: the
 * {@code sub} claim of a JWT authorizer (no authorizer, no claims or a blank subject: anonymous), and the bearer
 * credential of its {@code Authorization} header ({@link BearerCredentials}), and the client's address
 * ({@link EdgeRequests#clientAddress(HttpRequest)}: {@code X-Forwarded-For} only from the verified edge).
 * Tests replace this bean ({@code @Replaces(CallerBinder.class)}) to act as any caller.
 */
@Singleton
public class CallerBinder implements TypedRequestArgumentBinder<Caller> {

    private static final Argument<Caller> TYPE = Argument.of(Caller.class);

    @Override
    public Argument<Caller> argumentType() {
        return TYPE;
    }

    @Override
    public BindingResult<Caller> bind(ArgumentConversionContext<Caller> context, HttpRequest<?> source) {
        Caller user = source instanceof ServletHttpRequest<?, ?> servlet
                        && servlet.getNativeRequest() instanceof APIGatewayV2HTTPEvent event
                ? callerOf(event)
                : Caller.ANONYMOUS;
        Caller caller = new Caller(
                user.userId(),
                BearerCredentials.of(source.getHeaders().get(HttpHeaders.AUTHORIZATION)),
                new ClientAddress(EdgeRequests.clientAddress(source)));
        return () -> Optional.of(caller);
    }

    static Caller callerOf(APIGatewayV2HTTPEvent event) {
        String sub = Optional.ofNullable(event.getRequestContext())
                .map(APIGatewayV2HTTPEvent.RequestContext::getAuthorizer)
                .map(APIGatewayV2HTTPEvent.RequestContext.Authorizer::getJwt)
                .map(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT::getClaims)
                .map((Map<String, String> claims) -> claims.get("sub"))
                .filter(s -> !s.isBlank())
                .orElse(null);
        return sub == null ? Caller.ANONYMOUS : new Caller(sub);
    }
}
