package dev.pastebin.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code Auth} of an {@code AWS::Serverless::HttpApi} and of its routes, read as SAM's translator reads it
 * (samtranslator's HttpApi event source and OpenApiEditor): which authorizer guards a route and with which scopes.
 */
final class HttpApiAuth {

    /** The logical id SAM gives the API it creates for HttpApi events without an {@code ApiId}. */
    static final String IMPLICIT_API = "ServerlessHttpApi";

    private HttpApiAuth() {}

    /**
     * The authorization of the route an HttpApi event declares.
     *
     * @param event      where the route comes from, for error messages ({@code Function/Event})
     * @param properties the event's Properties, parameter {@code Ref}s resolved
     */
    static Optional<RouteAuthorization> of(
            CloudFormationTemplate template, String event, Map<String, Object> properties) {
        String api = apiId(properties.get("ApiId"), event);
        Map<String, Object> apiAuth = apiAuth(template, api);
        Map<String, Object> routeAuth =
                literal(expanded(template, properties.getOrDefault("Auth", Map.of())), event + ".Auth");
        Object authorizer = routeAuth.getOrDefault("Authorizer", apiAuth.get("DefaultAuthorizer"));
        if (authorizer == null || "NONE".equals(authorizer)) {
            return Optional.empty();
        }
        if (!(authorizer instanceof String name)) {
            throw new IllegalArgumentException(event + ": Auth.Authorizer must be a literal name, got " + authorizer);
        }
        if (name.equals("AWS_IAM") && Boolean.TRUE.equals(apiAuth.get("EnableIamAuthorizer"))) {
            return Optional.of(new RouteAuthorization(name, Optional.empty(), List.of()));
        }
        Map<String, Object> authorizers = CloudFormationTemplate.mapping(
                apiAuth.getOrDefault("Authorizers", Map.of()), api + ".Auth.Authorizers");
        if (!authorizers.containsKey(name)) {
            // SAM refuses the template too ("it wasn't defined in the API's Authorizers").
            throw new IllegalArgumentException(event + ": the authorizer " + name + " is not among " + api
                    + "'s Auth.Authorizers " + authorizers.keySet());
        }
        Map<String, Object> definition =
                CloudFormationTemplate.mapping(authorizers.get(name), api + ".Auth.Authorizers." + name);
        // The event's scopes replace the authorizer's; an empty list on the event keeps the authorizer's (as SAM).
        List<String> scopes = strings(routeAuth.get("AuthorizationScopes"), event + ".Auth.AuthorizationScopes");
        if (scopes.isEmpty()) {
            scopes = strings(definition.get("AuthorizationScopes"), name + ".AuthorizationScopes");
        }
        return Optional.of(new RouteAuthorization(name, jwt(api, name, definition), scopes));
    }

    private static Optional<JwtAuthorizerDefinition> jwt(String api, String name, Map<String, Object> definition) {
        if (!(definition.get("JwtConfiguration") instanceof Map<?, ?>)) {
            return Optional.empty(); // a Lambda authorizer (FunctionArn): not enforced locally
        }
        Map<String, Object> configuration =
                CloudFormationTemplate.mapping(definition.get("JwtConfiguration"), name + ".JwtConfiguration");
        // SAM accepts issuer/audience in OpenAPI's case and Issuer/Audience in CloudFormation's.
        Object issuer = configuration.getOrDefault("issuer", configuration.get("Issuer"));
        Object audience = configuration.getOrDefault("audience", configuration.get("Audience"));
        if (issuer == null || audience == null) {
            throw new IllegalArgumentException(
                    api + ".Auth.Authorizers." + name + ".JwtConfiguration needs an issuer and an audience");
        }
        Object identitySource =
                definition.getOrDefault("IdentitySource", JwtAuthorizerDefinition.DEFAULT_IDENTITY_SOURCE);
        return Optional.of(new JwtAuthorizerDefinition(
                api,
                name,
                String.valueOf(identitySource),
                issuer,
                audience instanceof List<?> list ? List.copyOf(list) : List.of(audience)));
    }

    private static String apiId(Object apiId, String event) {
        if (apiId == null) {
            return IMPLICIT_API;
        }
        if (apiId instanceof Map<?, ?> ref && ref.get("Ref") instanceof String id) {
            return id;
        }
        if (apiId instanceof String id) {
            return id;
        }
        throw new IllegalArgumentException(event + ": ApiId must be a Ref of an HttpApi, got " + apiId);
    }

    /**
     * The API's Auth: Globals.HttpApi's merged with the resource's own, the resource's keys winning (SAM merges
     * Globals into every HttpApi, its implicit one included).
     */
    private static Map<String, Object> apiAuth(CloudFormationTemplate template, String api) {
        Map<String, Object> merged = new LinkedHashMap<>(auth(template, template.globalsHttpApi(), "Globals.HttpApi"));
        if (template.hasResource(api)) {
            if (!"AWS::Serverless::HttpApi".equals(template.type(api))) {
                throw new IllegalArgumentException(api + " is not an AWS::Serverless::HttpApi");
            }
            merged.putAll(auth(template, template.properties(api), api));
        }
        return merged;
    }

    private static Map<String, Object> auth(
            CloudFormationTemplate template, Map<String, Object> properties, String what) {
        Object auth = expanded(template, template.resolveParameters(properties.get("Auth")));
        return auth == null ? Map.of() : literal(auth, what + ".Auth");
    }

    /** The Auth as SAM receives it: with {@code AWS::LanguageExtensions} first, its {@code Fn::If}s resolved. */
    private static Object expanded(CloudFormationTemplate template, Object auth) {
        if (auth == null || !LanguageExtensions.declaredBy(template)) {
            return auth;
        }
        Object resolved = new LanguageExtensions(template).resolve(auth);
        return resolved == null ? Map.of() : resolved;
    }

    /**
     * An Auth mapping written out. Without {@code AWS::LanguageExtensions} SAM refuses an intrinsic here, and an
     * {@code Fn::If} read as a mapping would leave a route open that AWS guards (or the reverse): better to stop the
     * start and say so.
     */
    private static Map<String, Object> literal(Object auth, String what) {
        Map<String, Object> mapping = CloudFormationTemplate.mapping(auth, what);
        if (mapping.size() == 1 && mapping.keySet().iterator().next().startsWith("Fn::")) {
            throw new IllegalArgumentException(
                    what + " is an intrinsic (" + mapping.keySet().iterator().next()
                            + "), which SAM refuses: write the Auth out, or list AWS::LanguageExtensions first among the"
                            + " template's transforms");
        }
        return mapping;
    }

    private static List<String> strings(Object value, String what) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(what + " must be a list of scopes, got " + value);
        }
        List<String> out = new ArrayList<>();
        list.forEach(v -> out.add(String.valueOf(v)));
        return List.copyOf(out);
    }
}
