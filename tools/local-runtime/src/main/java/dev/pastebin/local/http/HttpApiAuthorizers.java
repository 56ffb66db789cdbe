package dev.pastebin.local.http;

import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.JwtAuthorizerDefinition;
import dev.pastebin.local.template.ResourceAttributes;
import dev.pastebin.local.template.RouteAuthorization;
import dev.pastebin.local.template.TemplateValues;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API's JWT authorizers, one instance per authorizer of the template (so that its routes share one cache
 * of the issuer's keys), their issuer and audiences resolved as the template's other values are: parameters (with
 * {@code --parameter-overrides}), and the intrinsics {@link TemplateValues} evaluates.
 */
public final class HttpApiAuthorizers {

    private final CloudFormationTemplate template;
    private final ResourceAttributes values;
    private final PrintStream log;
    private final Clock clock;
    private final Map<String, JwtAuthorizer> authorizers = new LinkedHashMap<>();

    public HttpApiAuthorizers(
            CloudFormationTemplate template, ResourceAttributes resources, PrintStream log, Clock clock) {
        this.template = template;
        this.values = template.withParameters(resources);
        this.log = log;
        this.clock = clock;
    }

    /** The JWT authorizer requests to this route pass; empty for an open route and for one the runtime cannot check. */
    public synchronized Optional<JwtAuthorizer> forRoute(String function, FunctionDefinition.HttpRoute route) {
        if (route.authorization().isEmpty()) {
            return Optional.empty();
        }
        RouteAuthorization authorization = route.authorization().get();
        if (authorization.jwt().isEmpty()) {
            log.println("API  " + route.routeKey() + " -> " + function + ": its authorizer "
                    + authorization.authorizerName()
                    + " is not a JWT authorizer, which the local runtime does not enforce: the route is open here");
            return Optional.empty();
        }
        JwtAuthorizerDefinition definition = authorization.jwt().get();
        return Optional.of(
                authorizers.computeIfAbsent(definition.api() + "/" + definition.name(), key -> create(definition)));
    }

    private JwtAuthorizer create(JwtAuthorizerDefinition definition) {
        String what = "the JWT authorizer " + definition.api() + "/" + definition.name() + " in " + template.file();
        String issuer = resolve(definition.issuer(), what + ": its issuer");
        List<String> audiences = new ArrayList<>();
        for (Object audience : definition.audience()) {
            audiences.add(resolve(audience, what + ": an audience"));
        }
        return new JwtAuthorizer(
                new JwtAuthorizer.Configuration(
                        definition.name(), definition.identitySource(), URI.create(issuer), audiences),
                log,
                clock);
    }

    private String resolve(Object value, String what) {
        return TemplateValues.resolve(value, values)
                .orElseThrow(() -> new IllegalArgumentException(what + " has no local value: " + value
                        + " (a parameter without a Default needs --parameter-overrides)"));
    }
}
