package dev.pastebin.infra.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.local.Json;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * A sign-in instance as `make run ARGS="--parameter-overrides CreateAccess=oidc OidcIssuer=... OidcAudience=pastebin"`
 * runs it: the real template, whose create routes carry API Gateway's JWT authorizer, on the local runtime, which
 * verifies tokens as API Gateway does against a real OIDC issuer (mock-oauth2-server: discovery, JWKS, signed
 * tokens). A create needs a token of that issuer for that audience, unexpired; reads stay anonymous; the paste
 * belongs to the token's subject, who lists and deletes it under /me/pastes with the same token.
 */
class SignInCreateIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String AUDIENCE = "pastebin";

    private static MockOAuth2Server issuer;
    private static MockOAuth2Server stranger;
    private static String databaseUrl;
    private static LocalRuntimeProcess runtime;

    @BeforeAll
    static void start() throws Exception {
        issuer = new MockOAuth2Server();
        issuer.start(InetAddress.getByName("127.0.0.1"), 0);
        stranger = new MockOAuth2Server();
        stranger.start(InetAddress.getByName("127.0.0.1"), 0);
        databaseUrl = OwnDatabase.Create.migrated("sign_in");
        runtime = LocalRuntimeProcess.start(
                "local-sign-in",
                Map.of("Parameters", Map.of("DATASOURCES_DEFAULT_URL", databaseUrl)),
                List.of(
                        "--parameter-overrides",
                        "CreateAccess=oidc OidcIssuer=" + issuer.issuerUrl("team") + " OidcAudience=" + AUDIENCE));
    }

    @AfterAll
    static void stop() throws Exception {
        if (runtime != null) {
            runtime.close();
        }
        issuer.shutdown();
        stranger.shutdown();
    }

    private static String token(MockOAuth2Server server, String audience, long expirySeconds) {
        return server.issueToken(
                        "team",
                        "cli",
                        new DefaultOAuth2TokenCallback(
                                "team", "alice", "JWT", List.of(audience), Map.of(), expirySeconds))
                .serialize();
    }

    private static HttpResponse<String> post(String path, String contentType, String body, String token)
            throws Exception {
        var request = HttpRequest.newBuilder(runtime.uri(path))
                .header("Content-Type", contentType)
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return TestSupport.sendHonouringRetryAfter(HTTP, request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefusedByTheAuthorizer(HttpResponse<String> response) {
        assertEquals(401, response.statusCode(), response.body());
        assertEquals("{\"message\":\"Unauthorized\"}", response.body());
    }

    @Test
    void everyCreateRouteRefusesAMissingForeignExpiredOrMisaddressedToken() throws Exception {
        for (String path : List.of("/pastes", "/", "/documents")) {
            assertRefusedByTheAuthorizer(post(path, "text/plain", "hello", null));
        }
        assertRefusedByTheAuthorizer(post("/pb/", "application/json", "{}", null));
        assertRefusedByTheAuthorizer(post("/pastes", "text/plain", "hello", token(issuer, "someone-else", 3600)));
        assertRefusedByTheAuthorizer(post("/pastes", "text/plain", "hello", token(issuer, AUDIENCE, -120)));
        // another issuer's token: another key, another iss
        assertRefusedByTheAuthorizer(post("/pastes", "text/plain", "hello", token(stranger, AUDIENCE, 3600)));
        assertRefusedByTheAuthorizer(post("/pastes", "text/plain", "hello", "not-a-jwt"));
    }

    @Test
    void aSignedInCreateBelongsToItsSubjectAndAnyoneMayReadIt() throws Exception {
        HttpResponse<String> created = post("/pastes", "text/plain", "signed in", token(issuer, AUDIENCE, 3600));
        assertEquals(201, created.statusCode(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        String code = location.substring(location.lastIndexOf('/') + 1);
        assertEquals("alice", ownerOf(code));

        HttpResponse<String> haste = post("/documents", "text/plain", "haste", token(issuer, AUDIENCE, 3600));
        assertEquals(200, haste.statusCode(), haste.body());

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    HttpResponse<String> read = TestSupport.sendHonouringRetryAfter(
                            HTTP,
                            HttpRequest.newBuilder(runtime.uri("/pastes/" + code))
                                    .header("Accept", "text/plain")
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, read.statusCode(), read.body());
                    assertEquals("signed in", read.body());
                });
        // the owner's listing and delete, behind the same authorizer
        String mine = token(issuer, AUDIENCE, 3600);
        HttpResponse<String> listed = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/me/pastes"))
                        .header("Authorization", "Bearer " + mine)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, listed.statusCode(), listed.body());
        assertTrue(listed.body().contains("\"shortCode\":\"" + code + "\""), listed.body());
        HttpResponse<String> refused = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/me/pastes")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertRefusedByTheAuthorizer(refused);
        HttpResponse<String> deleted = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/me/pastes/" + code))
                        .header("Authorization", "Bearer " + mine)
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, deleted.statusCode(), deleted.body());
        assertEquals(null, ownerOfOrNull(code), "the row is gone");

        HttpResponse<String> page = HTTP.send(
                HttpRequest.newBuilder(runtime.uri("/"))
                        .header("Accept", "text/html")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<html"), page.body());
    }

    /**
     * The web page on a sign-in instance: its first create is refused by the authorizer, so the page asks for a
     * credential; with the token pasted in, the same form creates the paste, owned by the token's subject.
     */
    @Test
    void thePageAsksForACredentialWhenTheInstanceNeedsOneAndCreatesWithIt() throws Exception {
        try (BrowserPage page = BrowserPage.start(runtime)) {
            page.open("/");
            page.driver().findElement(By.id("content")).sendKeys("from the page, signed in");
            page.driver().findElement(By.id("create")).click();
            assertEquals("error", page.awaitState(Duration.ofSeconds(60), "error", "created"), page.text("message"));
            assertTrue(page.driver().findElement(By.id("credential")).isDisplayed(), "the page asks for a credential");
            assertTrue(page.text("message").contains("API key or sign-in token"), page.text("message"));

            page.driver().findElement(By.id("credential")).sendKeys(token(issuer, AUDIENCE, 3600));
            page.driver().findElement(By.id("create")).click();

            assertEquals("created", page.awaitState(Duration.ofSeconds(60), "created", "error"), page.text("message"));
            String address = page.driver().findElement(By.id("paste-link")).getAttribute("href");
            assertEquals("alice", ownerOf(address.substring(address.lastIndexOf('/') + 1)));
        }
    }

    /**
     * A large paste from the web page on a sign-in instance: its JSON create with files is refused as a text create is,
     * the page asks for a credential, and with the token the same files are created (owned by the token's subject)
     * and uploaded.
     */
    @Test
    void thePageAsksForACredentialForFilesTooAndUploadsThemWithIt(@TempDir Path dir) throws Exception {
        runtime.configureBucketAsTheTemplate();
        Path file = Files.writeString(dir.resolve("signed.txt"), "a file from the page, signed in\n");
        try (BrowserPage page = BrowserPage.start(runtime)) {
            page.open("/");
            page.awaitState(Duration.ofSeconds(20), "editing");
            page.driver().findElement(By.id("files")).sendKeys(file.toString());
            page.driver().findElement(By.id("create")).click();
            assertEquals("error", page.awaitState(Duration.ofSeconds(60), "error", "created"), page.text("message"));
            assertTrue(page.driver().findElement(By.id("credential")).isDisplayed(), "the page asks for a credential");

            page.driver().findElement(By.id("credential")).sendKeys(token(issuer, AUDIENCE, 3600));
            page.driver().findElement(By.id("create")).click();

            assertEquals("created", page.awaitState(Duration.ofSeconds(60), "created", "error"), page.text("message"));
            assertEquals(
                    "done",
                    page.driver().findElement(By.cssSelector("#file-list li")).getDomAttribute("data-state"));
            String address = page.driver().findElement(By.id("paste-link")).getAttribute("href");
            assertEquals("alice", ownerOf(address.substring(address.lastIndexOf('/') + 1)));
        }
    }

    /**
     * pbincli, unmodified, on a sign-in instance: its {@code --auth custom} sends the token as a header of its own
     * choosing, so the encrypted paste is created and owned by the token's subject; without it the authorizer's 401
     * fails the send.
     */
    @Test
    void pbincliSendsWithItsCustomAuthorizationHeader() throws Exception {
        Path pbincli = InstalledClients.tool("pbincli-venv/bin/pbincli");
        assertTrue(Files.isExecutable(pbincli), pbincli + " is missing: run infra/local/clients.sh");
        String server = runtime.baseUrl() + "/pb/";
        String header = "{\"Authorization\": \"Bearer " + token(issuer, AUDIENCE, 3600) + "\"}";

        Client refused = client(null, pbincli.toString(), "send", "--json", "-s", server, "-t", "no token");
        assertTrue(!refused.output().matches("(?s).*\"status\": ?0.*"), refused.output());

        Client sent = client(
                null,
                pbincli.toString(),
                "send",
                "--json",
                "-s",
                server,
                "--auth",
                "custom",
                "--auth-custom",
                header,
                "-t",
                "sent by pbincli, signed in");
        assertEquals(0, sent.exit(), sent.output());
        String output = sent.output();
        String id = Json.MAPPER
                .readTree(output.substring(output.indexOf('{')))
                .path("result")
                .path("id")
                .asText();
        assertEquals("alice", ownerOf(id), output);
    }

    /**
     * rustypaste's client, unmodified: its auth token ({@code -a}, or {@code auth_token} in its config) is sent as the
     * whole Authorization header, so {@code "Bearer <token>"} signs it in.
     */
    @Test
    void rpasteSendsItsAuthTokenAsTheAuthorizationHeader(@TempDir Path dir) throws Exception {
        Path rpaste = InstalledClients.tool("rustypaste-cli/bin/rpaste");
        Assumptions.assumeTrue(
                Files.isExecutable(rpaste),
                rpaste + " is missing: infra/local/clients.sh builds it with cargo, and says so when this machine has"
                        + " none");
        Files.writeString(dir.resolve("config.toml"), """
                [server]
                address = "%s"

                [paste]
                oneshot = false
                """.formatted(runtime.baseUrl()));
        Files.writeString(dir.resolve("notes.txt"), "from rpaste, signed in\n");

        Client sent = client(
                dir,
                rpaste.toString(),
                "-c",
                "config.toml",
                "-a",
                "Bearer " + token(issuer, AUDIENCE, 3600),
                "notes.txt");
        assertEquals(0, sent.exit(), sent.output());
        String output = sent.output().trim();
        String url = output.lines()
                .filter(l -> l.startsWith("http"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(output));
        assertEquals("alice", ownerOf(url.substring(url.lastIndexOf('/') + 1)), output);
    }

    /** What a command-line client printed (stdout and stderr), and its exit status. */
    private record Client(int exit, String output) {}

    private static Client client(Path dir, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Client(process.exitValue(), output);
    }

    private static String ownerOfOrNull(String code) throws SQLException {
        try (Connection c = DriverManager.getConnection(
                        databaseUrl,
                        env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                        env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
                var statement = c.prepareStatement("SELECT user_id FROM pastes WHERE short_code = ?")) {
            statement.setString(1, code);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private static String ownerOf(String code) throws SQLException {
        String owner = ownerOfOrNull(code);
        assertTrue(owner != null, code + " has a row and an owner");
        return owner;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
