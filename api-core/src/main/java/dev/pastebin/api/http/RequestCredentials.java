package dev.pastebin.api.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.pastebin.api.create.CreateCredential;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.servlet.http.ServletHttpRequest;
import java.util.Map;
import java.util.Optional;

/**
 * The credential a create presented, read from its API Gateway (HTTP API, payload 2.0) event: the {@code sub} claim
 * of the token a JWT authorizer verified ({@link CreateCredential.Verified}; only a route with an authorizer carries
 * claims, and API Gateway writes them, never the client), else the {@code Authorization} header's bearer credential
 * ({@link BearerCredentials}). One place for the create function and the PrivateBin controller.
 */
public final class RequestCredentials {

    private RequestCredentials() {}

    public static CreateCredential of(HttpRequest<?> request) {
        return verifiedSubject(request)
                .<CreateCredential>map(CreateCredential.Verified::new)
                .orElseGet(() -> BearerCredentials.of(request.getHeaders().get(HttpHeaders.AUTHORIZATION)));
    }

    private static Optional<String> verifiedSubject(HttpRequest<?> request) {
        return request instanceof ServletHttpRequest<?, ?> servlet
                        && servlet.getNativeRequest() instanceof APIGatewayV2HTTPEvent event
                ? verifiedSubject(event)
                : Optional.empty();
    }

    /** The {@code sub} claim of the event's JWT authorizer; empty without an authorizer, claims or a subject. */
    public static Optional<String> verifiedSubject(APIGatewayV2HTTPEvent event) {
        return Optional.ofNullable(event.getRequestContext())
                .map(APIGatewayV2HTTPEvent.RequestContext::getAuthorizer)
                .map(APIGatewayV2HTTPEvent.RequestContext.Authorizer::getJwt)
                .map(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT::getClaims)
                .map((Map<String, String> claims) -> claims.get("sub"))
                .filter(sub -> !sub.isBlank());
    }
}
