package dev.pastebin.local.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a stock OIDC server cannot be made to do: rotate its keys, sign with an algorithm API Gateway refuses, issue
 * a token from the future. An issuer of the test's own (discovery and a key set it can change) and a fixed clock.
 */
class JwtAuthorizerKeysTest {

    private static final Instant NOW = Instant.parse("2026-12-06T08:00:00Z");

    private final AtomicReference<JWKSet> published = new AtomicReference<>(new JWKSet());
    private final AtomicInteger keySetFetches = new AtomicInteger();
    private HttpServer server;
    private String issuer;
    private JwtAuthorizer authorizer;

    @BeforeEach
    void startIssuer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/tenant";
        server.createContext(
                "/tenant/.well-known/openid-configuration",
                exchange -> answer(exchange, "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/keys\"}"));
        server.createContext("/tenant/keys", exchange -> {
            keySetFetches.incrementAndGet();
            answer(exchange, published.get().toString());
        });
        server.start();
        authorizer = new JwtAuthorizer(
                new JwtAuthorizer.Configuration(
                        "Oidc", "$request.header.Authorization", URI.create(issuer), List.of("pastebin")),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void stopIssuer() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        try (exchange) {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private static RSAKey key(String kid) throws JOSEException {
        return new RSAKeyGenerator(2048).keyID(kid).generate();
    }

    private String token(RSAKey key, Instant issuedAt) throws JOSEException {
        var jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims(issuedAt));
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private JWTClaimsSet claims(Instant issuedAt) {
        return new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience("pastebin")
                .subject("alice")
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(issuedAt.plusSeconds(3600)))
                .build();
    }

    private JwtAuthorizer.Outcome authorize(String token) {
        return authorizer.authorize(List.of(Map.entry("Authorization", "Bearer " + token)), "", List.of());
    }

    private static void assertRefused(JwtAuthorizer.Outcome outcome, String description) {
        var refused = assertInstanceOf(JwtAuthorizer.Refused.class, outcome);
        assertEquals(401, refused.response().statusCode());
        String challenge = refused.response().headers().stream()
                .filter(h -> h.getKey().equals("www-authenticate"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow();
        assertTrue(challenge.contains("error_description=\"" + description + "\""), challenge);
    }

    @Test
    void aKeyPublishedAfterTheFirstFetchIsFetchedForItsFirstToken() throws Exception {
        RSAKey first = key("first");
        published.set(new JWKSet(first.toPublicJWK()));
        assertInstanceOf(JwtAuthorizer.Allowed.class, authorize(token(first, NOW)));
        assertInstanceOf(JwtAuthorizer.Allowed.class, authorize(token(first, NOW)));
        assertEquals(1, keySetFetches.get(), "the key set is cached");

        RSAKey rotated = key("rotated");
        published.set(new JWKSet(List.of(first.toPublicJWK(), rotated.toPublicJWK())));

        assertInstanceOf(JwtAuthorizer.Allowed.class, authorize(token(rotated, NOW)));
        assertEquals(2, keySetFetches.get(), "an unknown kid fetches the key set again");

        RSAKey again = key("again");
        published.set(new JWKSet(List.of(rotated.toPublicJWK(), again.toPublicJWK())));

        assertInstanceOf(
                JwtAuthorizer.Allowed.class, authorize(token(again, NOW)), "every unknown kid, however soon after");
        assertEquals(3, keySetFetches.get());
    }

    @Test
    void aKeyTheIssuerNeverPublishedIsRefused() throws Exception {
        published.set(new JWKSet(key("first").toPublicJWK()));

        assertRefused(
                authorize(token(key("first"), NOW)), "the token's signature does not verify with a key of the issuer");
        assertRefused(
                authorize(token(key("unknown"), NOW)),
                "the token's signature does not verify with a key of the issuer");
    }

    @Test
    void onlyRsaSignaturesAreAccepted() throws Exception {
        var hmac = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("first").build(), claims(NOW));
        hmac.sign(new MACSigner(new byte[32]));

        assertRefused(authorize(hmac.serialize()), "the token's signing algorithm is not supported");
        assertRefused(authorize("not.a.jwt"), "the token is not a signed JWT");
    }

    @Test
    void aTokenIssuedOrValidOnlyInTheFutureIsRefusedWithoutClockSkew() throws Exception {
        RSAKey key = key("first");
        published.set(new JWKSet(key.toPublicJWK()));

        assertRefused(authorize(token(key, NOW.plusSeconds(1))), "the token was issued in the future");

        var notYet = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("first").build(),
                new JWTClaimsSet.Builder(claims(NOW))
                        .notBeforeTime(Date.from(NOW.plusSeconds(1)))
                        .build());
        notYet.sign(new RSASSASigner(key));
        assertRefused(authorize(notYet.serialize()), "the token is not valid yet");

        var expiredNow = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("first").build(),
                new JWTClaimsSet.Builder(claims(NOW.minusSeconds(3600))).build());
        expiredNow.sign(new RSASSASigner(key));
        assertRefused(authorize(expiredNow.serialize()), "the token has expired");
    }
}
