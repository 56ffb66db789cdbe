package dev.pastebin.local.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * An issuer's signing keys, found as API Gateway finds them: its OIDC discovery document
 * ({@code <issuer>/.well-known/openid-configuration}) names the {@code jwks_uri}, whose key set Nimbus caches and
 * fetches again when a token names a {@code kid} it does not hold (a rotated key).
 *
 * <p>Discovery happens at the first token, not at start, and is retried until it succeeds: a local issuer may
 * start after the runtime.
 */
final class IssuerKeys implements JWKSource<SecurityContext> {

    /** Generous for a machine busy with tests (Nimbus's own default is 500 ms). */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final int MAX_KEY_SET_BYTES = 512 * 1024;

    private final URI issuer;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private JWKSource<SecurityContext> keys;

    IssuerKeys(URI issuer) {
        this.issuer = issuer;
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        return keys().get(selector, context);
    }

    private synchronized JWKSource<SecurityContext> keys() throws KeySourceException {
        if (keys == null) {
            int timeout = (int) TIMEOUT.toMillis();
            try {
                // Not rate-limited (Nimbus's default allows one fetch per 30 s): API Gateway fetches the key set
                // again for every kid it has not seen, so a key published a moment ago works at once.
                keys = JWKSourceBuilder.create(
                                jwksUri().toURL(), new DefaultResourceRetriever(timeout, timeout, MAX_KEY_SET_BYTES))
                        .rateLimited(false)
                        .build();
            } catch (MalformedURLException | IllegalArgumentException e) {
                throw new KeySourceException("the issuer's jwks_uri is not a URL: " + e.getMessage(), e);
            }
        }
        return keys;
    }

    private URI jwksUri() throws KeySourceException {
        String base = issuer.toString().replaceFirst("/+$", "");
        URI discovery = URI.create(base + "/.well-known/openid-configuration");
        try {
            HttpResponse<byte[]> response = http.send(
                    HttpRequest.newBuilder(discovery).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            JsonNode document = response.statusCode() == 200 ? Json.parseOrNull(response.body()) : null;
            if (document == null || !document.path("jwks_uri").isTextual()) {
                throw new KeySourceException(discovery + " answered " + response.statusCode() + " without a jwks_uri");
            }
            return URI.create(document.get("jwks_uri").asText());
        } catch (IOException e) {
            throw new KeySourceException("cannot read " + discovery + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeySourceException("interrupted while reading " + discovery, e);
        }
    }
}
