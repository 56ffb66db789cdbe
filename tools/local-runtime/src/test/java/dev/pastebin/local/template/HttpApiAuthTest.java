package dev.pastebin.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpApiAuthTest {

    private static final Path FIXTURE =
            Path.of("src/test/resources/fixture/jwt-template.yaml").toAbsolutePath();

    private final SamTemplate template = SamTemplate.read(FIXTURE);

    private Optional<RouteAuthorization> route(SamTemplate template, String event) {
        return template.function("EchoFunction").httpRoutes().stream()
                .filter(r -> r.eventName().equals(event))
                .findFirst()
                .orElseThrow()
                .authorization();
    }

    private Optional<RouteAuthorization> route(String event) {
        return route(template, event);
    }

    @Test
    void aRouteWithoutAuthGetsTheDefaultAuthorizerWithItsIssuerParameterResolved() {
        RouteAuthorization create = route("Create").orElseThrow();
        assertEquals("Oidc", create.authorizerName());
        assertEquals(List.of(), create.scopes());
        JwtAuthorizerDefinition jwt = create.jwt().orElseThrow();
        assertEquals("Api", jwt.api());
        assertEquals("$request.header.Authorization", jwt.identitySource(), "SAM's default identity source");
        assertEquals("https://issuer.example/default", jwt.issuer());
        assertEquals(List.of("pastebin", "other-client"), jwt.audience());
    }

    @Test
    void anOverriddenIssuerParameterWins() {
        SamTemplate overridden = SamTemplate.read(FIXTURE, Map.of("OidcIssuer", "http://127.0.0.1:9/x"));
        assertEquals(
                "http://127.0.0.1:9/x",
                route(overridden, "Create").orElseThrow().jwt().orElseThrow().issuer());
    }

    @Test
    void theRoutesScopesAndAuthorizerWin() {
        RouteAuthorization admin = route("Admin").orElseThrow();
        assertEquals("Oidc", admin.authorizerName());
        assertEquals(List.of("admin", "superuser"), admin.scopes());
    }

    @Test
    void noneOpensARouteOfAnApiWithADefaultAuthorizer() {
        assertEquals(Optional.empty(), route("Open"));
    }

    @Test
    void theAuthorizersOwnScopesAndIdentitySourceApplyAndASubOfAParameterResolves() {
        RouteAuthorization read = route("Read").orElseThrow();
        assertEquals(List.of("read"), read.scopes(), "without scopes of its own a route takes the authorizer's");
        JwtAuthorizerDefinition jwt = read.jwt().orElseThrow();
        assertEquals("$request.header.X-Token", jwt.identitySource());
        assertEquals(
                Optional.of("https://issuer.example/default/sub"),
                TemplateValues.resolve(jwt.issuer(), template.template().withParameters(ResourceAttributes.NONE)),
                "Issuer/Audience in CloudFormation's case, and a parameter inside Fn::Sub");
    }

    @Test
    void aLambdaAuthorizerIsNamedButNotAJwtOne() {
        RouteAuthorization custom = route("Custom").orElseThrow();
        assertEquals("Custom", custom.authorizerName());
        assertEquals(Optional.empty(), custom.jwt());
    }

    @Test
    void theImplicitApiWithoutGlobalsHasNoAuthorizer() {
        assertEquals(Optional.empty(), route("Implicit"));
    }

    @Test
    void aConditionalAuthStopsTheStartRatherThanLeaveARouteOpen(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("template.yaml"),
                Files.readString(FIXTURE)
                        .replace(
                                "            Auth:\n              Authorizer: NONE",
                                "            Auth: !If [Private, {Authorizer: Oidc}, {Authorizer: NONE}]"));
        var e = assertThrows(IllegalArgumentException.class, () -> SamTemplate.read(file));
        assertTrue(e.getMessage().contains("EchoFunction/Open.Auth is an intrinsic (Fn::If)"), e.getMessage());
    }

    /** The fixture with AWS::LanguageExtensions first, and /open guarded only when the parameter Access is private. */
    private static Path conditionalFixture(Path dir, String condition) throws Exception {
        return Files.writeString(
                dir.resolve("template.yaml"),
                Files.readString(FIXTURE)
                        .replace(
                                "Transform: AWS::Serverless-2016-10-31",
                                "Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]\n"
                                        + "Conditions:\n  Private: " + condition)
                        .replace("  OidcIssuer:\n", "  Access:\n    Type: String\n    Default: anyone\n  OidcIssuer:\n")
                        .replace(
                                "            Auth:\n              Authorizer: NONE",
                                "            Auth: !If [Private, {Authorizer: Oidc, AuthorizationScopes: [open]},"
                                        + " {Authorizer: NONE}]"));
    }

    @Test
    void withLanguageExtensionsAConditionalAuthTakesTheBranchItsParametersChoose(@TempDir Path dir) throws Exception {
        Path file = conditionalFixture(dir, "!And [!Not [!Equals [!Ref Access, anyone]], !Equals [x, x]]");
        assertEquals(Optional.empty(), route(SamTemplate.read(file), "Open"), "open by default, as AWS deploys it");
        RouteAuthorization guarded = route(SamTemplate.read(file, Map.of("Access", "private")), "Open")
                .orElseThrow();
        assertEquals("Oidc", guarded.authorizerName());
        assertEquals(List.of("open"), guarded.scopes());
    }

    @Test
    void aConditionalApiAuthThatResolvesToNoValueLeavesTheApiWithoutAuthorizers(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("template.yaml"), """
                Transform:
                  - AWS::LanguageExtensions
                  - AWS::Serverless-2016-10-31
                Parameters:
                  Access: {Type: String, Default: anyone}
                Conditions:
                  Private: !Equals [!Ref Access, private]
                Resources:
                  Api:
                    Type: AWS::Serverless::HttpApi
                    Properties:
                      Auth: !If
                        - Private
                        - Authorizers:
                            Oidc:
                              JwtConfiguration: {issuer: "https://issuer.example", audience: [pastebin]}
                        - !Ref AWS::NoValue
                  EchoFunction:
                    Type: AWS::Serverless::Function
                    Properties:
                      CodeUri: ..
                      Handler: dev.pastebin.local.testfn.ApiHandler::handleRequest
                      Runtime: java21
                      Events:
                        Create:
                          Type: HttpApi
                          Properties:
                            ApiId: !Ref Api
                            Method: POST
                            Path: /things
                            Auth: !If [Private, {Authorizer: Oidc}, !Ref AWS::NoValue]
                """);
        assertEquals(Optional.empty(), route(SamTemplate.read(file), "Create"));
        RouteAuthorization guarded = route(SamTemplate.read(file, Map.of("Access", "private")), "Create")
                .orElseThrow();
        assertEquals("https://issuer.example", guarded.jwt().orElseThrow().issuer());
    }

    @Test
    void aConditionThatNeedsMoreThanParametersIsRefusedWithItsName(@TempDir Path dir) throws Exception {
        Path file = conditionalFixture(dir, "!Equals [!Ref AWS::Region, us-east-1]");
        var e = assertThrows(IllegalArgumentException.class, () -> SamTemplate.read(file));
        assertTrue(e.getMessage().contains("the condition Private needs more than parameters"), e.getMessage());
    }

    @Test
    void anUndefinedAuthorizerIsRefusedAsSamRefusesIt(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("template.yaml"),
                Files.readString(FIXTURE).replace("Authorizer: Subbed", "Authorizer: Missing"));
        var e = assertThrows(IllegalArgumentException.class, () -> SamTemplate.read(file));
        assertTrue(e.getMessage().contains("Missing"), e.getMessage());
    }
}
