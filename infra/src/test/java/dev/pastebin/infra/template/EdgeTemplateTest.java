package dev.pastebin.infra.template;

import static dev.pastebin.local.template.CloudFormationTemplate.mapping;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.SamTemplate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The edge in front of the HTTP API (docs/design.md, "Edge"): CloudFront with AWS WAF, on by default, the API
 * reachable only with the origin secret. LocalStack cannot run CloudFront or WAF, so this holds the template.
 */
class EdgeTemplateTest {

    /** The largest body the create function takes: the largest paste as JSON with every byte escaped (PasteContentReader). */
    private static final long LARGEST_ACCEPTED_BODY = 6L * UploadJobCodec.LARGEST_CONTENT_BYTES + 1024;
    /** API Gateway's own payload limit. */
    private static final long API_GATEWAY_PAYLOAD_LIMIT = 10L * 1024 * 1024;
    /** The statuses CloudFront caches for 10 s unless told otherwise. */
    private static final Set<Integer> CACHED_ERROR_STATUSES =
            Set.of(400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504);
    /** A stored paste's Cache-Control max-age (read function); the edge may not keep it longer. */
    private static final int PASTE_MAX_AGE = 60;

    private final CloudFormationTemplate template = InfraTemplate.load();
    private final CloudFormationTemplate webAcl =
            CloudFormationTemplate.load(InfraTemplate.INFRA.resolve("edge-waf.yaml"));

    @Test
    void theEdgeIsOnByDefaultAndEveryEdgeResourceDependsOnIt() {
        Map<String, Object> enabled = template.parameter("EdgeEnabled");
        assertEquals("true", enabled.get("Default"));
        assertEquals(List.of("true", "false"), enabled.get("AllowedValues"));
        Set<String> edge = template.resources().keySet().stream()
                .filter(id -> id.startsWith("Edge"))
                .collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        "EdgeOriginSecret",
                        "EdgeWebAcl",
                        "EdgeAclFunction",
                        "EdgeAclRole",
                        "EdgeAclLogGroup",
                        "EdgeForwardedHostFunction",
                        "EdgePasteCachePolicy",
                        "EdgeAssetCachePolicy",
                        "EdgeOriginRequestPolicy",
                        "EdgeDistribution"),
                edge);
        for (String id : edge) {
            Object condition = template.resource(id).get("Condition");
            assertTrue(Set.of("EdgeOn", "EdgeWebAclMade").contains(condition), id + " has condition " + condition);
        }
        assertTrue(String.valueOf(conditions().get("EdgeWebAclMade")).contains("{Condition=EdgeOn}"));
        Map<String, Object> output =
                mapping(mapping(template.root().get("Outputs"), "Outputs").get("EdgeUrl"), "EdgeUrl");
        assertEquals("EdgeOn", output.get("Condition"));
        assertEquals(Map.of("Fn::Sub", "https://${EdgeDistribution.DomainName}/"), output.get("Value"));
    }

    @Test
    void theOriginIsTheHttpApiOverHttpsWithTheOriginSecret() {
        Map<String, Object> origin = mapping(((List<?>) distribution().get("Origins")).getFirst(), "origin");
        assertEquals(
                Map.of("Fn::Sub", "${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"), origin.get("DomainName"));
        Map<String, Object> custom = mapping(origin.get("CustomOriginConfig"), "CustomOriginConfig");
        assertEquals("https-only", custom.get("OriginProtocolPolicy"));
        assertEquals(List.of("TLSv1.2"), custom.get("OriginSSLProtocols"));
        Map<String, Object> header = mapping(((List<?>) origin.get("OriginCustomHeaders")).getFirst(), "header");
        assertEquals("X-Origin-Verify", header.get("HeaderName"));
        assertEquals(originSecretReference(), header.get("HeaderValue"));
    }

    /** The HTTP functions check the same secret; the queue-driven ones have no use for it. */
    @Test
    void theHttpFunctionsGetTheOriginSecretWhenTheEdgeIsOn() {
        Object expected = Map.of("Fn::If", List.of("EdgeOn", originSecretReference(), Map.of("Ref", "AWS::NoValue")));
        for (String function : List.of("CreatePasteFunction", "ReadPasteFunction", "RemovePasteFunction")) {
            assertEquals(expected, template.environment(function).get("PASTEBIN_EDGE_ORIGIN_SECRET"), function);
        }
        for (String function : List.of("UploadPasteFunction", "SweeperFunction")) {
            assertFalse(template.environment(function).containsKey("PASTEBIN_EDGE_ORIGIN_SECRET"), function);
            assertFalse(template.environment(function).containsKey("PASTEBIN_EDGE_PREVIOUS_ORIGIN_SECRET"), function);
        }
        Map<String, Object> secret = template.properties("EdgeOriginSecret");
        // changing the generation renames, hence replaces, the secret: a newly generated value
        assertTrue(
                String.valueOf(secret.get("Name")).contains("${EdgeOriginSecretGeneration}"),
                String.valueOf(secret.get("Name")));
        Map<String, Object> generated = mapping(secret.get("GenerateSecretString"), "GenerateSecretString");
        assertTrue(template.intValue(generated.get("PasswordLength")) >= 32);
        assertEquals(true, generated.get("ExcludePunctuation"));
    }

    /**
     * A rotation in two deploys (docs/operating.md): the first replaces the secret and names the old generation,
     * which the functions keep accepting (the replaced secret is retained, so it still resolves by name) while
     * CloudFront moves to the new one; the distribution is updated only after the functions' aliases, so no edge
     * sends a secret the functions do not know yet.
     */
    @Test
    void duringARotationTheFunctionsAcceptThePreviousSecretFirst() {
        Map<String, Object> previous = template.parameter("EdgeOriginPreviousSecretGeneration");
        assertEquals(0, template.intValue(previous.get("Default")), "no previous secret outside a rotation");
        String accepts = String.valueOf(conditions().get("EdgeAcceptsPreviousSecret"));
        assertTrue(
                accepts.contains("{Condition=EdgeOn}")
                        && accepts.contains("{Ref=EdgeOriginPreviousSecretGeneration}, 0"),
                accepts);
        Object expected = Map.of(
                "Fn::If",
                List.of(
                        "EdgeAcceptsPreviousSecret",
                        Map.of(
                                "Fn::Sub",
                                "{{resolve:secretsmanager:${AWS::StackName}-edge-origin-verify-${EdgeOriginPreviousSecretGeneration}:SecretString}}"),
                        Map.of("Ref", "AWS::NoValue")));
        List<String> httpFunctions = httpFunctions();
        for (String function : httpFunctions) {
            assertEquals(
                    expected, template.environment(function).get("PASTEBIN_EDGE_PREVIOUS_ORIGIN_SECRET"), function);
        }
        // the same name as the secret's own, with the previous generation
        assertEquals(
                Map.of("Fn::Sub", "${AWS::StackName}-edge-origin-verify-${EdgeOriginSecretGeneration}"),
                template.properties("EdgeOriginSecret").get("Name"));
        assertEquals(
                "Retain",
                template.resource("EdgeOriginSecret").get("UpdateReplacePolicy"),
                "the replaced secret must still resolve");
        // every function the HTTP API routes to, as SAM names its live alias
        assertEquals(
                httpFunctions.stream().map(function -> function + "Aliaslive").collect(Collectors.toSet()),
                Set.copyOf((List<?>) template.resource("EdgeDistribution").get("DependsOn")));
    }

    /** The functions with an HttpApi event: those the edge's requests reach, which check its origin secret. */
    private static List<String> httpFunctions() {
        List<String> functions = SamTemplate.read(InfraTemplate.FILE).functions().stream()
                .filter(function -> !function.httpRoutes().isEmpty())
                .map(FunctionDefinition::logicalId)
                .sorted()
                .toList();
        assertTrue(functions.size() >= 5, "the HTTP functions: " + functions);
        return functions;
    }

    @Test
    void everyMethodIsForwardedAndOnlyGetAndHeadAreCached() {
        Map<String, Object> behaviour = defaultBehaviour();
        assertEquals(Set.of("GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"), Set.copyOf((List<?>)
                behaviour.get("AllowedMethods")));
        assertEquals(List.of("GET", "HEAD"), behaviour.get("CachedMethods"));
        assertEquals("redirect-to-https", behaviour.get("ViewerProtocolPolicy"));
        assertEquals(Map.of("Ref", "EdgePasteCachePolicy"), behaviour.get("CachePolicyId"));
        assertEquals(Map.of("Ref", "EdgeOriginRequestPolicy"), behaviour.get("OriginRequestPolicyId"));
        Map<String, Object> assets = mapping(((List<?>) distribution().get("CacheBehaviors")).getFirst(), "assets");
        assertEquals("/assets/*", assets.get("PathPattern"));
        assertEquals(Map.of("Ref", "EdgeAssetCachePolicy"), assets.get("CachePolicyId"));
    }

    /**
     * The origin's Cache-Control decides, bounded: nothing without it is cached (DefaultTTL 0), no-store (202s,
     * errors, creates) is honoured (MinTTL 0), and a stored paste stays at most its max-age, the bound on how long
     * a deleted paste can still be served from the edge (docs/design.md, "Edge").
     */
    @Test
    void pastesAreCachedAsTheOriginSaysForAtMostSixtySeconds() {
        Map<String, Object> pastes = cachePolicy("EdgePasteCachePolicy");
        assertEquals(0, template.intValue(pastes.get("MinTTL")));
        assertEquals(0, template.intValue(pastes.get("DefaultTTL")));
        assertEquals(PASTE_MAX_AGE, template.intValue(pastes.get("MaxTTL")));
        Map<String, Object> key = mapping(pastes.get("ParametersInCacheKeyAndForwardedToOrigin"), "key");
        // the same path answers text, JSON or a redirect to the page, by Accept; a private instance's creates need
        // Authorization at the origin, which CloudFront forwards only as part of the cache key
        assertEquals(
                Map.of(
                        "Fn::If",
                        List.of("CreateNeedsCredential", List.of("Accept", "Authorization"), List.of("Accept"))),
                mapping(key.get("HeadersConfig"), "HeadersConfig").get("Headers"));
        assertEquals(
                Map.of("Fn::Not", List.of(Map.of("Fn::Equals", List.of(Map.of("Ref", "CreateAccess"), "anyone")))),
                conditions().get("CreateNeedsCredential"));
        assertEquals(
                "all",
                mapping(key.get("QueryStringsConfig"), "QueryStringsConfig").get("QueryStringBehavior"));
        Map<String, Object> assets = cachePolicy("EdgeAssetCachePolicy");
        assertEquals(0, template.intValue(assets.get("DefaultTTL")));
        assertEquals(300, template.intValue(assets.get("MaxTTL")), "the assets' max-age=300");
    }

    @Test
    void errorAnswersAreNeverCachedAtTheEdge() {
        Map<Integer, Integer> ttls = ((List<?>) distribution().get("CustomErrorResponses"))
                .stream()
                        .map(r -> mapping(r, "CustomErrorResponse"))
                        .collect(Collectors.toMap(
                                r -> template.intValue(r.get("ErrorCode")),
                                r -> template.intValue(r.get("ErrorCachingMinTTL"))));
        assertEquals(CACHED_ERROR_STATUSES, ttls.keySet());
        ttls.forEach((status, ttl) -> assertEquals(0, ttl, "status " + status));
    }

    @Test
    void theOriginGetsWhatTheFunctionsReadButNeverTheViewersHost() {
        Map<String, Object> config =
                mapping(template.properties("EdgeOriginRequestPolicy").get("OriginRequestPolicyConfig"), "config");
        Map<String, Object> headers = mapping(config.get("HeadersConfig"), "HeadersConfig");
        assertEquals("whitelist", headers.get("HeaderBehavior"));
        Set<String> forwarded = ((List<?>) headers.get("Headers"))
                .stream().map(h -> ((String) h).toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        assertTrue(
                forwarded.containsAll(Set.of(
                        "content-type",
                        "idempotency-key",
                        "paste-delete-token",
                        "expire",
                        "x-forwarded-host",
                        "cloudfront-viewer-address")),
                forwarded.toString());
        assertFalse(forwarded.contains("host"), "API Gateway must get its own host name");
        assertEquals(
                "all",
                mapping(config.get("QueryStringsConfig"), "QueryStringsConfig").get("QueryStringBehavior"));
    }

    @Test
    void aViewerRequestFunctionCarriesTheViewersHostOnEveryBehaviour() {
        Map<String, Object> function = template.properties("EdgeForwardedHostFunction");
        String code = (String) function.get("FunctionCode");
        assertTrue(code.contains("request.headers['x-forwarded-host'] = { value: request.headers.host.value }"), code);
        assertEquals(true, function.get("AutoPublish"));
        List<Object> behaviours =
                new java.util.ArrayList<>((List<?>) distribution().get("CacheBehaviors"));
        behaviours.add(defaultBehaviour());
        for (Object behaviour : behaviours) {
            Map<String, Object> association = mapping(
                    ((List<?>) mapping(behaviour, "behaviour").get("FunctionAssociations")).getFirst(), "association");
            assertEquals("viewer-request", association.get("EventType"));
            assertTrue(String.valueOf(association.get("FunctionARN")).contains("EdgeForwardedHostFunction"));
        }
    }

    @Test
    void theWebAclLimitsWritesAndReadsPerClientIp() {
        Map<String, Map<String, Object>> rules = webAclRules();
        Map<String, Object> writes = rateStatement(rules.get("WriteRatePerIp"));
        assertEquals("IP", writes.get("AggregateKeyType"));
        assertEquals(Map.of("Ref", "CreateRateLimit"), writes.get("Limit"));
        Map<String, Object> reads = rateStatement(rules.get("ReadRatePerIp"));
        assertEquals("IP", reads.get("AggregateKeyType"));
        assertEquals(Map.of("Ref", "ReadRateLimit"), reads.get("Limit"));
        assertEquals(Set.of("GET", "HEAD"), methodsOf(reads.get("ScopeDownStatement")));
        for (Map<String, Object> rule : rules.values()) {
            assertEquals(Set.of("Block"), mapping(rule.get("Action"), "Action").keySet());
        }
        // the stack passes its own limits to the web ACL's stack
        Map<String, Object> given =
                mapping(template.properties("EdgeWebAcl").get("StackParameters"), "StackParameters");
        assertEquals(Map.of("Ref", "EdgeCreateRateLimit"), given.get("CreateRateLimit"));
        assertEquals(Map.of("Ref", "EdgeReadRateLimit"), given.get("ReadRateLimit"));
        // a private instance's signed writes have a ceiling of their own; when anyone may create, none (a header
        // must not buy a higher one)
        Map<String, Object> signed = rateStatement(rules.get("SignedWriteRatePerIp"));
        assertEquals("IP", signed.get("AggregateKeyType"));
        assertEquals(Map.of("Ref", "SignedCreateRateLimit"), signed.get("Limit"));
        assertEquals("SignedWritesCounted", conditionOf("SignedWriteRatePerIp"));
        assertEquals(
                Map.of("Fn::If", List.of("CreateNeedsCredential", Map.of("Ref", "EdgeSignedCreateRateLimit"), 0)),
                given.get("SignedCreateRateLimit"));
        assertEquals("CLOUDFRONT", webAcl.properties("WebAcl").get("Scope"));
    }

    /**
     * Every method the distribution forwards is counted per client IP: GET and HEAD by the read limit, every other
     * (POST, DELETE, PUT, PATCH, OPTIONS) by the write limit, so a DELETE flood cannot use up the route's throttle.
     */
    @Test
    void everyForwardedMethodIsCountedByAPerIpRateRule() {
        List<Map<String, Object>> perIp = webAclRules().values().stream()
                .map(rule -> mapping(rule.get("Statement"), "Statement").get("RateBasedStatement"))
                .filter(java.util.Objects::nonNull)
                .map(rate -> mapping(rate, "RateBasedStatement"))
                .filter(rate -> "IP".equals(rate.get("AggregateKeyType")))
                .toList();
        for (Object method :
                new java.util.TreeSet<>((List<?>) defaultBehaviour().get("AllowedMethods"))) {
            for (boolean signed : List.of(false, true)) {
                for (boolean authorized : List.of(false, true)) {
                    List<Object> limits = perIp.stream()
                            .filter(rate -> signed || !rate.get("Limit").equals(Map.of("Ref", "SignedCreateRateLimit")))
                            .filter(rate ->
                                    matches(rate.get("ScopeDownStatement"), (String) method, authorized, signed))
                            .map(rate -> rate.get("Limit"))
                            .toList();
                    Object expected = method.equals("GET") || method.equals("HEAD")
                            ? Map.of("Ref", "ReadRateLimit")
                            : signed && authorized
                                    ? Map.of("Ref", "SignedCreateRateLimit")
                                    : Map.of("Ref", "CreateRateLimit");
                    assertEquals(
                            List.of(expected),
                            limits,
                            method + (authorized ? " with" : " without") + " Authorization"
                                    + (signed ? " on a private instance" : "")
                                    + " must be counted per client IP by exactly one rate rule");
                }
            }
        }
    }

    /**
     * AWS WAF counts each IPv6 address on its own and has no prefix key, so one host with a /64 could rotate
     * addresses past every per-IP limit. The distribution answers no IPv6 DNS query, and a request that reaches
     * CloudFront over IPv6 anyway (an edge address used directly) is blocked before the rate rules: every per-IP
     * counter counts IPv4 addresses only.
     */
    @Test
    void noPerIpLimitCanBeEscapedByRotatingIpv6Addresses() {
        assertEquals(false, distribution().get("IPV6Enabled"), "the distribution must not publish IPv6 addresses");
        Map<String, Object> rule = webAclRules().get("NoIpv6");
        assertNotNull(rule, "a rule blocks every IPv6 source");
        assertEquals(Set.of("Block"), mapping(rule.get("Action"), "Action").keySet());
        Map<String, Object> reference = mapping(
                mapping(rule.get("Statement"), "Statement").get("IPSetReferenceStatement"), "IPSetReferenceStatement");
        assertEquals(Map.of("Fn::GetAtt", List.of("Ipv6Addresses", "Arn")), normalised(reference.get("Arn")));
        Map<String, Object> ipv6 = webAcl.properties("Ipv6Addresses");
        assertEquals("IPV6", ipv6.get("IPAddressVersion"));
        assertEquals("CLOUDFRONT", ipv6.get("Scope"));
        // AWS WAF takes any prefix but /0: the two halves are every IPv6 address
        assertEquals(List.of("::/1", "8000::/1"), ipv6.get("Addresses"));
        int priority = template.intValue(rule.get("Priority"));
        for (String rateRule : List.of("WriteRatePerIp", "SignedWriteRatePerIp", "ReadRatePerIp")) {
            assertTrue(
                    priority < template.intValue(webAclRules().get(rateRule).get("Priority")),
                    "NoIpv6 runs before " + rateRule);
        }
    }

    /** Declared sizes above the largest body the API accepts are blocked at the edge; every accepted body passes. */
    @Test
    void theSizeRuleBlocksOnlyBodiesNoCreateAccepts() {
        Map<String, Object> statement =
                mapping(webAclRules().get("OversizedBody").get("Statement"), "Statement");
        Map<String, Object> regex = mapping(statement.get("RegexMatchStatement"), "RegexMatchStatement");
        assertEquals(Map.of("SingleHeader", Map.of("Name", "content-length")), regex.get("FieldToMatch"));
        Pattern blocked = Pattern.compile((String) regex.get("RegexString"));
        for (long size : new long[] {
            0, 1, 65_536, 262_144, UploadJobCodec.LARGEST_CONTENT_BYTES, LARGEST_ACCEPTED_BODY, 4_999_999
        }) {
            assertFalse(blocked.matcher(Long.toString(size)).find(), size + " bytes must pass");
        }
        for (long size : new long[] {5_000_000, 9_999_999, API_GATEWAY_PAYLOAD_LIMIT, 123_456_789}) {
            assertTrue(blocked.matcher(Long.toString(size)).find(), size + " bytes must be blocked");
        }
    }

    /**
     * A CLOUDFRONT web ACL only exists in us-east-1: from every region the stack makes it there through the custom
     * resource (edge-acl-function), unless EdgeWebAclArn names one; no rule refuses a region any more.
     */
    @Test
    void theWebAclIsMadeInUsEast1FromAnyRegionUnlessOneIsGiven() {
        String made = String.valueOf(conditions().get("EdgeWebAclMade"));
        assertTrue(made.contains("{Condition=EdgeWebAclGiven}") && !made.contains("AWS::Region"), made);
        String rules = String.valueOf(template.root().get("Rules"));
        assertFalse(rules.contains("AWS::Region") || rules.contains("EdgeWebAclArn"), "no region is refused: " + rules);
        assertEquals(
                Map.of(
                        "Fn::If",
                        List.of(
                                "EdgeWebAclMade",
                                Map.of("Fn::GetAtt", List.of("EdgeWebAcl", "WebAclArn")),
                                Map.of("Ref", "EdgeWebAclArn"))),
                normalised(distribution().get("WebACLId")));

        assertEquals("Custom::EdgeWebAcl", template.resource("EdgeWebAcl").get("Type"));
        Map<String, Object> acl = template.properties("EdgeWebAcl");
        assertEquals(Map.of("Ref", "EdgeAclFunction.Alias"), acl.get("ServiceToken"));
        // a new function version (its code or the packed edge-waf.yaml) updates the stack
        assertEquals(Map.of("Ref", "EdgeAclFunction.Version"), acl.get("ArtifactVersion"));
        assertEquals(
                Map.of(
                        "CreateRateLimit", Map.of("Ref", "EdgeCreateRateLimit"),
                        "ReadRateLimit", Map.of("Ref", "EdgeReadRateLimit"),
                        "SignedCreateRateLimit",
                                Map.of(
                                        "Fn::If",
                                        List.of(
                                                "CreateNeedsCredential",
                                                Map.of("Ref", "EdgeSignedCreateRateLimit"),
                                                0)),
                        "NamePrefix", Map.of("Fn::Sub", "${AWS::StackName}-${AWS::Region}")),
                acl.get("StackParameters"));
        assertEquals(
                webAcl.root().get("Parameters") instanceof Map<?, ?> p ? p.keySet() : Set.of(),
                mapping(acl.get("StackParameters"), "StackParameters").keySet(),
                "every parameter of edge-waf.yaml is given");
        int timeout = ((Number) template.properties("EdgeAclFunction").get("Timeout")).intValue();
        assertTrue(((Number) acl.get("ServiceTimeout")).intValue() > timeout, "CloudFormation outwaits the function");

        Pattern arn =
                Pattern.compile((String) template.parameter("EdgeWebAclArn").get("AllowedPattern"));
        assertTrue(arn.matcher("").matches());
        assertTrue(arn.matcher("arn:aws:wafv2:us-east-1:123456789012:global/webacl/pastebin-edge/a1b2c3")
                .matches());
        assertFalse(arn.matcher("arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/pastebin-edge/a1b2c3")
                .matches());
        assertFalse(arn.matcher("pastebin-edge").matches());
    }

    /** The function needs no database: outside the VPC, with a role for that one stack and its WAF resources. */
    @Test
    void theWebAclFunctionRunsOutsideTheVpcWithRightsOnItsOneStack() {
        Map<String, Object> function = template.properties("EdgeAclFunction");
        assertEquals("../edge-acl-function", function.get("CodeUri"));
        assertEquals("dev.pastebin.edgeacl.EdgeAclHandler", function.get("Handler"));
        assertEquals(Map.of("Ref", "AWS::NoValue"), function.get("VpcConfig"));
        assertEquals(Map.of("Fn::GetAtt", List.of("EdgeAclRole", "Arn")), normalised(function.get("Role")));
        assertFalse(function.containsKey("Policies"), "the role is its own, without SAM's VPC access policy");

        Map<String, Object> role = template.properties("EdgeAclRole");
        String policies = String.valueOf(role.get("Policies"));
        assertFalse(policies.contains("ec2:"), policies);
        List<Map<String, Object>> statements = ((List<?>) role.get("Policies"))
                .stream()
                        .flatMap(p -> ((List<?>) mapping(mapping(p, "policy").get("PolicyDocument"), "document")
                                        .get("Statement"))
                                .stream())
                        .map(st -> mapping(st, "statement"))
                        .toList();
        Map<String, Object> stack = statements.stream()
                .filter(st -> String.valueOf(st.get("Action")).contains("cloudformation:CreateStack"))
                .findFirst()
                .orElseThrow();
        // the stack the function names <stack>-<region>-edge-waf (edge-acl-function's EdgeAclRequest), and the one
        // it named <stack>-edge-waf before, which an Update tags as this stack's
        assertEquals(
                List.of(
                        Map.of(
                                "Fn::Sub",
                                "arn:${AWS::Partition}:cloudformation:us-east-1:${AWS::AccountId}:stack/"
                                        + "${AWS::StackName}-${AWS::Region}-edge-waf/*"),
                        Map.of(
                                "Fn::Sub",
                                "arn:${AWS::Partition}:cloudformation:us-east-1:${AWS::AccountId}:stack/"
                                        + "${AWS::StackName}-edge-waf/*")),
                normalised(stack.get("Resource")));
        assertTrue(String.valueOf(stack.get("Action")).contains("cloudformation:TagResource"), "its owner tag");
        for (Map<String, Object> st : statements) {
            String resource = String.valueOf(st.get("Resource"));
            String actions = String.valueOf(st.get("Action"));
            assertTrue(
                    actions.contains("xray:") || !resource.equals("*"),
                    "only X-Ray is granted on every resource: " + st);
            if (actions.contains("wafv2:")) {
                assertTrue(resource.contains("wafv2:us-east-1:${AWS::AccountId}:global/"), resource);
            }
        }
        assertEquals("EdgeWebAclMade", template.resource("EdgeAclLogGroup").get("Condition"));
        assertEquals(
                Map.of("Ref", "EdgeAclLogGroup"),
                mapping(function.get("LoggingConfig"), "LoggingConfig").get("LogGroup"));
    }

    /**
     * CloudFormation creates, updates and deletes edge-waf.yaml's web ACL and IP set with the function's role, so the
     * role's AWS WAF rights are for those two alone: each is named under the prefix the stack passes (its name and
     * region), and the role may act on those names only, not on another stack's web ACL, nor one made by hand, nor
     * a name that merely starts with this stack's.
     */
    @Test
    void theWebAclRoleMayChangeOnlyTheWebAclAndIpSetOfItsOwnStack() {
        List<String> granted =
                wafArnsOfTheRole().stream().map(EdgeTemplateTest::deployed).toList();
        String global = "arn:aws:wafv2:us-east-1:123456789012:global/";
        for (String foreign : List.of(
                global + "webacl/someone-elses-acl/0f1e2d3c-1111-2222-3333-444455556666",
                global + "ipset/someone-elses-ip-set/0f1e2d3c-1111-2222-3333-444455556666",
                global + "webacl/pastebin-eu-west-1-edge-waf-staging/0f1e2d3c-1111-2222-3333-444455556666")) {
            assertFalse(allows(granted, foreign), "EdgeAclRole may change " + foreign + " through " + granted);
        }

        Object prefix = mapping(template.properties("EdgeWebAcl").get("StackParameters"), "StackParameters")
                .get("NamePrefix");
        assertEquals(Map.of("Fn::Sub", "${AWS::StackName}-${AWS::Region}"), prefix);
        String stackPrefix = deployed((String) mapping(prefix, "NamePrefix").get("Fn::Sub"));
        for (String id : webAcl.resourcesOfType("AWS::WAFv2::WebACL")) {
            String arn = global + "webacl/" + wafName(id, stackPrefix) + "/0f1e2d3c-1111-2222-3333-444455556666";
            assertTrue(allows(granted, arn), "EdgeAclRole may not change its own " + arn + ": " + granted);
        }
        for (String id : webAcl.resourcesOfType("AWS::WAFv2::IPSet")) {
            String arn = global + "ipset/" + wafName(id, stackPrefix) + "/0f1e2d3c-1111-2222-3333-444455556666";
            assertTrue(allows(granted, arn), "EdgeAclRole may not change its own " + arn + ": " + granted);
        }
        assertEquals(
                2,
                webAcl.resources().keySet().stream()
                        .filter(id -> webAcl.type(id).startsWith("AWS::WAFv2::"))
                        .count(),
                "the web ACL and the IP set are all edge-waf.yaml makes");
    }

    /**
     * The name edge-waf.yaml gives the WAF resource {@code id} with NamePrefix {@code prefix} (given: the stack always
     * gives it): within AWS WAF's rules (1 to 128 letters, digits, _ and -) for the longest prefix the parameter takes.
     */
    private String wafName(String id, String prefix) {
        Object name = webAcl.properties(id).get("Name");
        assertNotNull(name, id + " has no Name: CloudFormation would make one up, which no role can be scoped to");
        List<?> choice = (List<?>) mapping(name, id + ".Name").get("Fn::If");
        assertNotNull(choice, id + ".Name: " + name);
        assertEquals("NamePrefixGiven", choice.get(0), id + ".Name: " + name);
        assertEquals(Map.of("Ref", "AWS::NoValue"), choice.get(2), "without a prefix, CloudFormation's name");
        String named = (String) mapping(choice.get(1), id + ".Name").get("Fn::Sub");
        Map<String, Object> parameter =
                mapping(mapping(webAcl.root().get("Parameters"), "Parameters").get("NamePrefix"), "NamePrefix");
        var longest = Pattern.compile("\\^\\[\\\\w-]\\{0,(\\d+)}\\$").matcher((String) parameter.get("AllowedPattern"));
        assertTrue(longest.matches(), "NamePrefix's AllowedPattern: " + parameter.get("AllowedPattern"));
        String longestName = named.replace("${NamePrefix}", "p".repeat(Integer.parseInt(longest.group(1))));
        assertTrue(longestName.length() <= 128 && longestName.matches("[\\w-]+"), longestName);
        return named.replace("${NamePrefix}", prefix);
    }

    /** The resources of EdgeAclRole's statements that grant AWS WAF actions, as the template writes them. */
    private List<String> wafArnsOfTheRole() {
        List<String> arns = new java.util.ArrayList<>();
        for (Object policy : (List<?>) template.properties("EdgeAclRole").get("Policies")) {
            Map<String, Object> document = mapping(mapping(policy, "policy").get("PolicyDocument"), "document");
            for (Object st : (List<?>) document.get("Statement")) {
                Map<String, Object> statement = mapping(st, "statement");
                if (!String.valueOf(statement.get("Action")).contains("wafv2:")) {
                    continue;
                }
                Object resources = statement.get("Resource");
                for (Object resource : resources instanceof List<?> l ? l : List.of(resources)) {
                    arns.add(resource instanceof Map<?, ?> m ? String.valueOf(m.get("Fn::Sub")) : (String) resource);
                }
            }
        }
        assertFalse(arns.isEmpty(), "EdgeAclRole grants AWS WAF actions");
        return arns;
    }

    /** {@code text} as a stack "pastebin" in eu-west-1 of account 123456789012 would have it. */
    private static String deployed(String text) {
        return text.replace("${AWS::Partition}", "aws")
                .replace("${AWS::AccountId}", "123456789012")
                .replace("${AWS::StackName}", "pastebin")
                .replace("${AWS::Region}", "eu-west-1");
    }

    /** Whether one of IAM's resource patterns ({@code *} any run of characters, {@code ?} one) matches {@code arn}. */
    private static boolean allows(List<String> patterns, String arn) {
        return patterns.stream().anyMatch(pattern -> {
            StringBuilder regex = new StringBuilder();
            for (char c : pattern.toCharArray()) {
                regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
            }
            return arn.matches(regex.toString());
        });
    }

    private Map<String, Object> conditions() {
        return mapping(template.root().get("Conditions"), "Conditions");
    }

    private Map<String, Object> distribution() {
        return mapping(template.properties("EdgeDistribution").get("DistributionConfig"), "DistributionConfig");
    }

    private Map<String, Object> defaultBehaviour() {
        return mapping(distribution().get("DefaultCacheBehavior"), "DefaultCacheBehavior");
    }

    private Map<String, Object> cachePolicy(String id) {
        return mapping(template.properties(id).get("CachePolicyConfig"), id);
    }

    private static Object originSecretReference() {
        return Map.of("Fn::Sub", "{{resolve:secretsmanager:${EdgeOriginSecret}:SecretString}}");
    }

    /** Every rule of the web ACL by name; a rule under {@code Fn::If} (only on a private instance) as its rule. */
    private Map<String, Map<String, Object>> webAclRules() {
        return ((List<?>) webAcl.properties("WebAcl").get("Rules"))
                .stream()
                        .map(r -> mapping(r, "rule"))
                        .map(r -> r.containsKey("Fn::If") ? mapping(((List<?>) r.get("Fn::If")).get(1), "rule") : r)
                        .collect(Collectors.toMap(r -> (String) r.get("Name"), r -> r));
    }

    /** The condition a rule is under, or null when it is always there. */
    private String conditionOf(String ruleName) {
        for (Object rule : (List<?>) webAcl.properties("WebAcl").get("Rules")) {
            Map<String, Object> r = mapping(rule, "rule");
            if (r.containsKey("Fn::If")) {
                List<?> branches = (List<?>) r.get("Fn::If");
                if (ruleName.equals(mapping(branches.get(1), "rule").get("Name"))) {
                    assertEquals(Map.of("Ref", "AWS::NoValue"), branches.get(2));
                    return (String) branches.get(0);
                }
            }
        }
        return null;
    }

    /**
     * Whether a scope-down statement matches a request of {@code method}, with or without an Authorization header,
     * on an instance whose signed writes are counted apart ({@code signed}: the condition SignedWritesCounted).
     */
    private static boolean matches(Object statement, String method, boolean authorized, boolean signed) {
        Map<String, Object> s = mapping(statement, "statement");
        if (s.containsKey("Fn::If")) {
            List<?> branches = (List<?>) s.get("Fn::If");
            assertEquals("SignedWritesCounted", branches.get(0));
            return matches(branches.get(signed ? 1 : 2), method, authorized, signed);
        }
        if (s.containsKey("NotStatement")) {
            return !matches(
                    mapping(s.get("NotStatement"), "NotStatement").get("Statement"), method, authorized, signed);
        }
        if (s.containsKey("OrStatement")) {
            return ((List<?>) mapping(s.get("OrStatement"), "OrStatement").get("Statements"))
                    .stream().anyMatch(inner -> matches(inner, method, authorized, signed));
        }
        if (s.containsKey("AndStatement")) {
            return ((List<?>) mapping(s.get("AndStatement"), "AndStatement").get("Statements"))
                    .stream().allMatch(inner -> matches(inner, method, authorized, signed));
        }
        if (s.containsKey("SizeConstraintStatement")) {
            Map<String, Object> size = mapping(s.get("SizeConstraintStatement"), "SizeConstraintStatement");
            assertEquals(Map.of("SingleHeader", Map.of("Name", "authorization")), size.get("FieldToMatch"));
            assertEquals("GT", size.get("ComparisonOperator"));
            assertEquals(0, ((Number) size.get("Size")).intValue());
            return authorized;
        }
        return methodsOf(s).contains(method);
    }

    private static Map<String, Object> rateStatement(Map<String, Object> rule) {
        assertNotNull(rule);
        return mapping(mapping(rule.get("Statement"), "Statement").get("RateBasedStatement"), "RateBasedStatement");
    }

    /** The methods a scope-down statement matches: one method ByteMatch, or an Or of them. */
    private static Set<String> methodsOf(Object statement) {
        Map<String, Object> s = mapping(statement, "statement");
        if (s.containsKey("OrStatement")) {
            return ((List<?>) mapping(s.get("OrStatement"), "OrStatement").get("Statements"))
                    .stream().flatMap(inner -> methodsOf(inner).stream()).collect(Collectors.toSet());
        }
        Map<String, Object> match = mapping(s.get("ByteMatchStatement"), "ByteMatchStatement");
        assertEquals(Map.of("Method", Map.of()), match.get("FieldToMatch"));
        assertEquals("EXACTLY", match.get("PositionalConstraint"));
        return Set.of((String) match.get("SearchString"));
    }

    /** {@code !GetAtt A.B.C} as the list form, whichever the reader produced. */
    private static Object normalised(Object value) {
        if (value instanceof Map<?, ?> m && m.get("Fn::If") instanceof List<?> l) {
            return Map.of("Fn::If", l.stream().map(EdgeTemplateTest::normalised).toList());
        }
        if (value instanceof Map<?, ?> m && m.get("Fn::GetAtt") instanceof String s) {
            int dot = s.indexOf('.');
            return Map.of("Fn::GetAtt", List.of(s.substring(0, dot), s.substring(dot + 1)));
        }
        return value;
    }
}
