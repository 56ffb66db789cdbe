package dev.pastebin.local.template;

import java.util.List;
import java.util.Optional;

/**
 * The authorizer of one {@code HttpApi} route, as SAM resolves it: the event's {@code Auth.Authorizer}, else the
 * API's {@code Auth.DefaultAuthorizer} ({@code NONE} on the event opens the route), and the event's
 * {@code Auth.AuthorizationScopes}, else the authorizer's own {@code AuthorizationScopes}.
 *
 * @param authorizerName the name under the API's {@code Auth.Authorizers} (or {@code AWS_IAM})
 * @param jwt            the authorizer when it is a JWT one; empty for the kinds the runtime does not enforce (a
 *                       Lambda authorizer, {@code AWS_IAM})
 * @param scopes         the route's authorization scopes: a token must carry at least one of them (none: any)
 */
public record RouteAuthorization(String authorizerName, Optional<JwtAuthorizerDefinition> jwt, List<String> scopes) {}
