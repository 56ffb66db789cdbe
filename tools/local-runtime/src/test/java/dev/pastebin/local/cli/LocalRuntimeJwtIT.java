package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.TestSupport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local runtime as {@code make run} starts it, on a template whose HTTP API has JWT authorizers and whose issuer
 * is a parameter overridden to a real OIDC issuer (mock-oauth2-server): the function runs in its own JVM and reads
 * the claims through Lambda's own event deserialisation.
 */
class LocalRuntimeJwtIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
    private static MockOAuth2Server issuer;
    private static LocalRuntime runtime;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        issuer = new MockOAuth2Server();
        issuer.start(InetAddress.getByName("127.0.0.1"), 0);
        Path template = Path.of("target/test-classes/fixture/jwt-template.yaml").toAbsolutePath();
        assertTrue(Files.exists(template), template + " is missing; run the tests through Maven");
        runtime = LocalRuntime.create(
                new RuntimeSettings(
                        "127.0.0.1",
                        0,
                        template,
                        List.of(),
                        Map.of("OidcIssuer", issuer.issuerUrl("default").toString()),
                        Map.of(),
                        TestSupport.ricLib(),
                        Path.of("target/local-runtime-jwt-work"),
                        1,
                        false,
                        null,
                        "us-east-1",
                        "000000000000",
                        null,
                        null,
                        TestSupport.INIT_TIMEOUT,
                        null,
                        null,
                        null),
                new PrintStream(LOG, true, StandardCharsets.UTF_8));
        port = runtime.start();
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
        issuer.shutdown();
    }

    private static String token(String scope) {
        return issuer.issueToken(
                        "default",
                        "client",
                        new DefaultOAuth2TokenCallback(
                                "default", "alice", "JWT", List.of("pastebin"), Map.of("scope", scope), 3600))
                .serialize();
    }

    private static HttpResponse<String> send(String method, String path, String token) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString("x"));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theTemplatesAuthorizersGuardItsRoutesAndTheFunctionReadsTheClaims() throws Exception {
        HttpResponse<String> refused = send("POST", "/things", null);
        assertEquals(401, refused.statusCode(), refused.body());
        assertEquals("{\"message\":\"Unauthorized\"}", refused.body());

        HttpResponse<String> created = send("POST", "/things", token("openid"));
        assertEquals(201, created.statusCode(), created.body());
        assertTrue(created.body().contains("jwt.sub=alice\n"), created.body());
        assertTrue(created.body().contains("jwt.scopes=null\n"), created.body());

        HttpResponse<String> forbidden = send("POST", "/admin", token("openid"));
        assertEquals(403, forbidden.statusCode(), forbidden.body());
        HttpResponse<String> admin = send("POST", "/admin", token("openid superuser"));
        assertEquals(201, admin.statusCode(), admin.body());
        assertTrue(admin.body().contains("jwt.scopes=[openid, superuser]\n"), admin.body());

        HttpResponse<String> open = send("GET", "/open", null);
        assertEquals(200, open.statusCode(), open.body());
        assertTrue(open.body().contains("jwt.sub=none\n"), open.body());

        String log = LOG.toString(StandardCharsets.UTF_8);
        assertTrue(
                log.contains("API  POST /things -> EchoFunction (JWT authorizer Oidc: " + issuer.issuerUrl("default")),
                log);
        assertTrue(
                log.contains("DELETE /things/{id} -> EchoFunction: its authorizer Custom is not a JWT authorizer"),
                log);
    }
}
