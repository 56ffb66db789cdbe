package dev.pastebin.local.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.pastebin.local.Json;
import java.io.PrintStream;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An HTTP API's JWT authorizer, checked as API Gateway checks it before it invokes a route's integration
 * ("Control access to HTTP APIs with JWT authorizers"): the token from the identity source ({@code Bearer }
 * stripped), a JWS whose {@code kid} names a key of the issuer's key set and whose RSA signature that key
 * verifies, {@code iss} the issuer, {@code aud} (or {@code client_id} when there is no {@code aud}) one of the
 * audiences, {@code exp} after now, {@code nbf} and {@code iat} not after now (no clock skew allowed), and on a
 * route with authorization scopes a {@code scope} (or {@code scp}) naming at least one of them.
 *
 * <p>A refused request is answered as API Gateway answers it: 401 {@code {"message":"Unauthorized"}} for a
 * missing or invalid token, 403 {@code {"message":"Forbidden"}} for missing scopes, and the function is not
 * invoked.
 */
public final class JwtAuthorizer {

    /** API Gateway verifies RSA signatures only ("Currently, only RSA-based algorithms are supported"). */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512);

    /**
     * @param identitySource where the token is: {@code $request.header.<Name>} or {@code $request.querystring.<name>}
     */
    public record Configuration(String name, String identitySource, URI issuer, List<String> audiences) {

        public Configuration {
            if (!identitySource.startsWith(HEADER) && !identitySource.startsWith(QUERY)) {
                throw new IllegalArgumentException("the JWT authorizer " + name + ": identity source " + identitySource
                        + " is neither " + HEADER + "<name> nor " + QUERY + "<name>");
            }
            audiences = List.copyOf(audiences);
        }
    }

    /** What the route's function sees in {@code requestContext.authorizer.jwt}. */
    public record Authorized(Map<String, String> claims, List<String> scopes) {}

    /** The outcome of one request: the function's authorizer context, or API Gateway's answer instead of it. */
    public sealed interface Outcome permits Allowed, Refused {}

    public record Allowed(Authorized context) implements Outcome {}

    public record Refused(HttpApiEvents.Response response) implements Outcome {}

    private static final String HEADER = "$request.header.";
    private static final String QUERY = "$request.querystring.";
    private static final String BEARER = "Bearer ";

    private final Configuration configuration;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final PrintStream log;
    private final Clock clock;

    public JwtAuthorizer(Configuration configuration, PrintStream log, Clock clock) {
        this.configuration = configuration;
        this.log = log;
        this.clock = clock;
        processor.setJWSKeySelector(
                new JWSVerificationKeySelector<>(ALGORITHMS, new IssuerKeys(configuration.issuer())));
        // API Gateway checks neither the typ header (access tokens may say "at+jwt") nor any claim here: the
        // claims are checked below, by its rules rather than Nimbus's (which allow 60 s of clock skew).
        processor.setJWSTypeVerifier((type, context) -> {});
        processor.setJWTClaimsSetVerifier((claims, context) -> {});
    }

    public Configuration configuration() {
        return configuration;
    }

    /**
     * @param headers     the request's headers as received
     * @param routeScopes the route's authorization scopes (none: any token the authorizer accepts)
     */
    Outcome authorize(List<Map.Entry<String, String>> headers, String rawQueryString, List<String> routeScopes) {
        String token = identity(headers, rawQueryString);
        if (token == null || token.isBlank()) {
            // RFC 6750: a request without credentials gets the scheme, no error code
            return new Refused(HttpApiEvents.unauthorized("Bearer"));
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token.startsWith(BEARER) ? token.substring(BEARER.length()) : token);
        } catch (ParseException e) {
            return invalid(routeScopes, "the token is not a signed JWT");
        }
        if (!ALGORITHMS.contains(jwt.getHeader().getAlgorithm())) {
            return invalid(routeScopes, "the token's signing algorithm is not supported");
        }
        if (jwt.getHeader().getKeyID() == null) {
            return invalid(routeScopes, "the token has no kid header");
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (BadJOSEException e) {
            return invalid(routeScopes, "the token's signature does not verify with a key of the issuer");
        } catch (JOSEException e) {
            log.println("JWT authorizer " + configuration.name() + ": cannot get the keys of " + configuration.issuer()
                    + ": " + e.getMessage());
            return invalid(routeScopes, "the issuer's keys cannot be fetched");
        }
        Map<String, Object> payload = jwt.getPayload().toJSONObject();
        String refusal = claimsRefusal(claims, payload);
        if (refusal != null) {
            return invalid(routeScopes, refusal);
        }
        List<String> tokenScopes = scopes(payload);
        if (!routeScopes.isEmpty()) {
            if (tokenScopes.stream().noneMatch(routeScopes::contains)) {
                return new Refused(HttpApiEvents.forbidden(
                        challenge(routeScopes, "insufficient_scope", "the token has none of the route's scopes")));
            }
            return new Allowed(new Authorized(flatten(payload), tokenScopes));
        }
        // Events captured from API Gateway carry "scopes": null on a route without authorization scopes.
        return new Allowed(new Authorized(flatten(payload), null));
    }

    private String identity(List<Map.Entry<String, String>> headers, String rawQueryString) {
        String source = configuration.identitySource();
        if (source.startsWith(HEADER)) {
            String name = source.substring(HEADER.length());
            List<String> values = headers.stream()
                    .filter(h -> h.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue)
                    .toList();
            return values.isEmpty() ? null : String.join(",", values);
        }
        return HttpApiEvents.queryParameters(rawQueryString).get(source.substring(QUERY.length()));
    }

    /** The first of API Gateway's claim rules the token breaks, or null. */
    private String claimsRefusal(JWTClaimsSet claims, Map<String, Object> payload) {
        if (!configuration.issuer().toString().equals(claims.getIssuer())) {
            return "the token does not have a valid issuer";
        }
        // "API Gateway validates client_id only if aud is not present."
        Collection<String> audiences =
                payload.containsKey("aud") ? claims.getAudience() : stringClaim(claims, "client_id");
        if (audiences.stream().noneMatch(configuration.audiences()::contains)) {
            return "the token does not have a valid audience"; // API Gateway's own wording
        }
        Instant now = clock.instant();
        // "exp: must be after the current time"; "nbf", "iat": before it (not after it, to the millisecond)
        if (time(payload, "exp").filter(exp -> !exp.isAfter(now)).isPresent()) {
            return "the token has expired";
        }
        if (time(payload, "nbf").filter(nbf -> nbf.isAfter(now)).isPresent()) {
            return "the token is not valid yet";
        }
        if (time(payload, "iat").filter(iat -> iat.isAfter(now)).isPresent()) {
            return "the token was issued in the future";
        }
        return null;
    }

    /** A NumericDate claim (seconds since the epoch, possibly fractional); Nimbus has checked it is a number. */
    private static Optional<Instant> time(Map<String, Object> payload, String name) {
        return payload.get(name) instanceof Number seconds
                ? Optional.of(Instant.ofEpochMilli(Math.round(seconds.doubleValue() * 1000)))
                : Optional.empty();
    }

    private static List<String> stringClaim(JWTClaimsSet claims, String name) {
        return claims.getClaim(name) instanceof String value ? List.of(value) : List.of();
    }

    /** The token's scopes: {@code scope} (space-delimited, RFC 6749), else {@code scp} (a list or a string). */
    private static List<String> scopes(Map<String, Object> payload) {
        Object value = payload.containsKey("scope") ? payload.get("scope") : payload.get("scp");
        if (value instanceof String text) {
            return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    /**
     * The claims as API Gateway passes them: every value a string, numbers and booleans as their text, a list
     * as {@code [a b]} (as events captured from API Gateway show), an object as its JSON (undocumented); a claim
     * whose value is null is left out.
     */
    static Map<String, String> flatten(Map<String, Object> payload) {
        Map<String, String> claims = new LinkedHashMap<>();
        payload.forEach((name, value) -> {
            if (value != null) {
                claims.put(name, text(value));
            }
        });
        return claims;
    }

    private static String text(Object value) {
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(text(item)));
            return "[" + String.join(" ", items) + "]";
        }
        if (value instanceof Map<?, ?> map) {
            try {
                return Json.MAPPER.writeValueAsString(map);
            } catch (JsonProcessingException e) {
                return String.valueOf(map);
            }
        }
        return String.valueOf(value);
    }

    private static Refused invalid(List<String> routeScopes, String description) {
        return new Refused(HttpApiEvents.unauthorized(challenge(routeScopes, "invalid_token", description)));
    }

    /** The {@code www-authenticate} value in API Gateway's form: {@code Bearer scope="" error="..." ...}. */
    private static String challenge(List<String> routeScopes, String error, String description) {
        return String.format(
                Locale.ROOT,
                "Bearer scope=\"%s\" error=\"%s\" error_description=\"%s\"",
                String.join(" ", routeScopes),
                error,
                description);
    }
}
