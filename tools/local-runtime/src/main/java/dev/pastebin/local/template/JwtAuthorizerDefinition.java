package dev.pastebin.local.template;

import java.util.List;

/**
 * A JWT authorizer of an {@code AWS::Serverless::HttpApi}: {@code Auth.Authorizers.<Name>} with a
 * {@code JwtConfiguration}, as the template declares it.
 *
 * @param api            the HttpApi's logical id ({@code ServerlessHttpApi} for SAM's implicit API)
 * @param identitySource where the token is, e.g. {@code $request.header.Authorization} (SAM's default)
 * @param issuer         {@code JwtConfiguration.issuer}: a {@code Ref} of a parameter is resolved, other
 *                       intrinsics ({@code Fn::Sub}) are left for {@link TemplateValues}
 * @param audience       {@code JwtConfiguration.audience}, each value as {@code issuer}
 */
public record JwtAuthorizerDefinition(
        String api, String name, String identitySource, Object issuer, List<Object> audience) {

    /** SAM's default for an OAuth2 (JWT) authorizer of an HTTP API. */
    public static final String DEFAULT_IDENTITY_SOURCE = "$request.header.Authorization";
}
