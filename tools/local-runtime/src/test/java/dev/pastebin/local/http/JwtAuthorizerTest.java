package dev.pastebin.local.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.nimbusds.jwt.SignedJWT;
import dev.pastebin.local.lambda.InProcessFunction;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.ResourceAttributes;
import dev.pastebin.local.template.SamTemplate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's JWT authorizer against a real OIDC issuer (mock-oauth2-server: discovery, a JWKS, RS256 tokens),
 * on the routes of {@code fixture/jwt-template.yaml}, whose function is an in-process one that records every event
 * it is invoked with, through the serializer Lambda's Java runtime uses.
 */
class JwtAuthorizerTest {

    private static final Path FIXTURE =
            Path.of("src/test/resources/fixture/jwt-template.yaml").toAbsolutePath();
    private static final String AUDIENCE = "pastebin";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<APIGatewayV2HTTPEvent> INVOCATIONS = new CopyOnWriteArrayList<>();
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();

    private static MockOAuth2Server issuer;
    private static LocalHttpApi api;

    @BeforeAll
    static void start() throws Exception {
        issuer = new MockOAuth2Server();
        issuer.start(InetAddress.getByName("127.0.0.1"), 0);

        SamTemplate template = SamTemplate.read(FIXTURE, Map.of("OidcIssuer", issuerUrl()));
        var log = new PrintStream(LOG, true, StandardCharsets.UTF_8);
        var authorizers = new HttpApiAuthorizers(template.template(), ResourceAttributes.NONE, log, Clock.systemUTC());
        var function = InProcessFunction.of(
                "EchoFunction",
                (APIGatewayV2HTTPEvent event, com.amazonaws.services.lambda.runtime.Context c) -> {
                    INVOCATIONS.add(event);
                    return APIGatewayV2HTTPResponse.builder()
                            .withStatusCode(200)
                            .withBody("invoked")
                            .build();
                },
                APIGatewayV2HTTPEvent.class,
                () -> null);
        HttpApiRoutes routes = new HttpApiRoutes();
        for (FunctionDefinition.HttpRoute route :
                template.function("EchoFunction").httpRoutes()) {
            routes.add(function, route, authorizers.forRoute("EchoFunction", route));
        }
        api = new LocalHttpApi(
                routes, new HttpApiEvents.Stage("000000000000", "local"), new InetSocketAddress("127.0.0.1", 0));
        api.start();
    }

    @AfterAll
    static void stop() {
        api.close();
        issuer.shutdown();
    }

    @BeforeEach
    void forgetInvocations() {
        INVOCATIONS.clear();
    }

    private static String issuerUrl() {
        return issuer.issuerUrl("default").toString();
    }

    /** A token of the fixture's issuer for {@code audience}, valid for {@code expirySeconds} (negative: expired). */
    private static String token(String audience, Map<String, Object> claims, long expirySeconds) {
        return issuer.issueToken(
                        "default",
                        "client",
                        new DefaultOAuth2TokenCallback(
                                "default", "alice", "JWT", List.of(audience), claims, expirySeconds))
                .serialize();
    }

    private static HttpResponse<String> send(String method, String path, String authorization) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path))
                .method(method, HttpRequest.BodyPublishers.ofString("{}"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertUnauthorized(HttpResponse<String> response, String description) {
        assertEquals(401, response.statusCode(), response.body());
        assertEquals("{\"message\":\"Unauthorized\"}", response.body());
        String challenge = response.headers().firstValue("www-authenticate").orElseThrow();
        assertTrue(challenge.startsWith("Bearer scope=\"\" error=\"invalid_token\""), challenge);
        assertTrue(challenge.contains("error_description=\"" + description + "\""), challenge);
        assertEquals(List.of(), INVOCATIONS, "the function is not invoked");
    }

    @Test
    void aValidTokenReachesTheFunctionWithItsClaimsAsStrings() throws Exception {
        String token = token(AUDIENCE, Map.of("groups", List.of("admins", "users"), "email_verified", true), 3600);

        HttpResponse<String> response = send("POST", "/things", "Bearer " + token);

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("invoked", response.body());
        APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT jwt =
                INVOCATIONS.getFirst().getRequestContext().getAuthorizer().getJwt();
        Map<String, String> claims = jwt.getClaims();
        assertEquals("alice", claims.get("sub"));
        assertEquals(issuerUrl(), claims.get("iss"));
        assertEquals(AUDIENCE, claims.get("aud"), "one audience, which the issuer writes as a string");
        assertEquals("[admins users]", claims.get("groups"));
        assertEquals("true", claims.get("email_verified"));
        assertTrue(claims.get("exp").matches("\\d+"), claims.get("exp"));
        assertNull(jwt.getScopes(), "a route without authorization scopes passes none");
    }

    @Test
    void theTokenMayComeWithoutBearerAndAnotherConfiguredAudienceWorks() throws Exception {
        HttpResponse<String> response = send("POST", "/things", token("other-client", Map.of(), 3600));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(1, INVOCATIONS.size());
    }

    @Test
    void withoutAnAudienceTheClientIdIsChecked() throws Exception {
        // Cognito's access tokens carry client_id and no aud
        String accessToken = issuer.issueToken(
                        "default",
                        "client",
                        new DefaultOAuth2TokenCallback(
                                "default", "alice", "JWT", List.of(), Map.of("client_id", AUDIENCE), 3600))
                .serialize();
        assertEquals(200, send("POST", "/things", "Bearer " + accessToken).statusCode());

        String otherClient = issuer.issueToken(
                        "default",
                        "client",
                        new DefaultOAuth2TokenCallback(
                                "default", "alice", "JWT", List.of(), Map.of("client_id", "someone-else"), 3600))
                .serialize();
        INVOCATIONS.clear();
        assertUnauthorized(
                send("POST", "/things", "Bearer " + otherClient), "the token does not have a valid audience");
    }

    @Test
    void withoutATokenTheAnswerIs401AndTheFunctionIsNotInvoked() throws Exception {
        HttpResponse<String> response = send("POST", "/things", null);

        assertEquals(401, response.statusCode(), response.body());
        assertEquals("{\"message\":\"Unauthorized\"}", response.body());
        assertEquals(List.of("Bearer"), response.headers().allValues("www-authenticate"));
        assertEquals(List.of(), INVOCATIONS);
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        assertUnauthorized(
                send("POST", "/things", "Bearer " + token("someone-else", Map.of(), 3600)),
                "the token does not have a valid audience");
    }

    @Test
    void anExpiredTokenIsRefused() throws Exception {
        assertUnauthorized(
                send("POST", "/things", "Bearer " + token(AUDIENCE, Map.of(), -60)), "the token has expired");
    }

    @Test
    void aTokenSignedWithAnotherIssuersKeyInThisIssuersNameIsRefused() throws Exception {
        // The issuer's second tenant signs with a key of its own; the claims are those of a valid token here.
        var forged = issuer.issueToken(
                "other",
                "client",
                new DefaultOAuth2TokenCallback(
                        "other", "mallory", "JWT", List.of(AUDIENCE), Map.of("iss", issuerUrl()), 3600));
        var genuine = SignedJWT.parse(token(AUDIENCE, Map.of(), 3600));
        assertEquals(issuerUrl(), forged.getJWTClaimsSet().getIssuer());
        assertNotEquals(genuine.getHeader().getKeyID(), forged.getHeader().getKeyID());

        assertUnauthorized(
                send("POST", "/things", "Bearer " + forged.serialize()),
                "the token's signature does not verify with a key of the issuer");
    }

    @Test
    void aTokenWithoutAnyOfTheRoutesScopesIs403() throws Exception {
        HttpResponse<String> response =
                send("POST", "/admin", "Bearer " + token(AUDIENCE, Map.of("scope", "openid profile"), 3600));

        assertEquals(403, response.statusCode(), response.body());
        assertEquals("{\"message\":\"Forbidden\"}", response.body());
        String challenge = response.headers().firstValue("www-authenticate").orElseThrow();
        assertTrue(challenge.startsWith("Bearer scope=\"admin superuser\" error=\"insufficient_scope\""), challenge);
        assertEquals(List.of(), INVOCATIONS);
    }

    @Test
    void aTokenWithOneOfTheRoutesScopesPassesAllItsScopes() throws Exception {
        HttpResponse<String> response =
                send("POST", "/admin", "Bearer " + token(AUDIENCE, Map.of("scope", "openid superuser"), 3600));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                List.of("openid", "superuser"),
                INVOCATIONS
                        .getFirst()
                        .getRequestContext()
                        .getAuthorizer()
                        .getJwt()
                        .getScopes());
    }

    @Test
    void aRouteWithoutAnAuthorizerIsInvokedWithoutAToken() throws Exception {
        HttpResponse<String> response = send("GET", "/open", null);

        assertEquals(200, response.statusCode(), response.body());
        assertNull(INVOCATIONS.getFirst().getRequestContext().getAuthorizer());
    }

    @Test
    void aLambdaAuthorizerIsReportedAsNotEnforced() {
        assertTrue(
                LOG.toString(StandardCharsets.UTF_8)
                        .contains("DELETE /things/{id} -> EchoFunction: its authorizer Custom"),
                LOG.toString(StandardCharsets.UTF_8));
    }
}
