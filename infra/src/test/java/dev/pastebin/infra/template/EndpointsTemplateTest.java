package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The created VPC has no route to the internet: every AWS service a function's code calls needs a VPC endpoint.
 * The services are read from the code (each function module's and core's main sources and AWS SDK dependencies), so
 * a new SDK client without its endpoint fails here instead of timing out in the deployed function.
 */
class EndpointsTemplateTest {

    /** SDK service module -> the endpoint's type; S3's gateway endpoint is free, the others are interface endpoints. */
    static final Map<String, String> ENDPOINT_TYPES = Map.of(
            "s3", "Gateway",
            "sqs", "Interface",
            "secretsmanager", "Interface");

    private final CloudFormationTemplate template = InfraTemplate.load();

    @Test
    void everyServiceAFunctionCallsHasItsEndpointAndNoEndpointIsUnused() {
        Map<String, Set<String>> callers = new TreeMap<>();
        Path core = InfraTemplate.INFRA.resolve("../core").normalize();
        Path apiCore = InfraTemplate.INFRA.resolve("../api-core").normalize();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            Path module = InfraTemplate.INFRA
                    .resolve(String.valueOf(template.properties(function).get("CodeUri")))
                    .normalize();
            // a missing module fails TemplateTest.everyFunctionIsBuiltByTheMakefileInItsCodeUri
            if (!Files.isDirectory(module)) {
                continue;
            }
            // a function that overrides the Globals' VpcConfig with none (EdgeAclFunction) reaches AWS directly
            if (InfraTemplate.outsideTheVpc(template, function)) {
                continue;
            }
            Set<String> services = new TreeSet<>(services(module));
            String pom = readString(module.resolve("pom.xml"));
            boolean onApiCore = pom.contains("<artifactId>pastebin-api-core</artifactId>");
            if (onApiCore) {
                services.addAll(services(apiCore));
            }
            // api-core stands on core: an HTTP function runs core's clients too
            if (onApiCore || pom.contains("<artifactId>pastebin-core</artifactId>")) {
                services.addAll(services(core));
            }
            services.forEach(
                    s -> callers.computeIfAbsent(s, k -> new TreeSet<>()).add(function));
        }
        assertTrue(callers.keySet().containsAll(Set.of("s3", "sqs", "secretsmanager")), callers.toString());

        Map<String, String> endpoints = new TreeMap<>();
        for (String id : template.resourcesOfType("AWS::EC2::VPCEndpoint")) {
            Map<String, Object> p = template.properties(id);
            String service = String.valueOf(CloudFormationTemplate.mapping(p.get("ServiceName"), id)
                            .get("Fn::Sub"))
                    .replace("com.amazonaws.${AWS::Region}.", "");
            endpoints.put(service, String.valueOf(p.get("VpcEndpointType")));
            assertEquals("NetworkCreated", template.resource(id).get("Condition"), id);
            if ("Interface".equals(p.get("VpcEndpointType"))) {
                assertEquals(true, p.get("PrivateDnsEnabled"), id + ": the SDK calls the service's public name");
                assertEquals("[{Ref=PrivateSubnetA}, {Ref=PrivateSubnetB}]", String.valueOf(p.get("SubnetIds")), id);
                assertEquals("[{Ref=EndpointSecurityGroup}]", String.valueOf(p.get("SecurityGroupIds")), id);
            } else {
                assertEquals("[{Ref=PrivateRouteTable}]", String.valueOf(p.get("RouteTableIds")), id);
            }
        }
        callers.forEach((service, functions) -> {
            String type = ENDPOINT_TYPES.get(service);
            assertTrue(
                    type != null,
                    functions + " call " + service + ", which the created VPC cannot reach: add its VPC endpoint to"
                            + " infra/template.yaml and its type to ENDPOINT_TYPES");
            assertEquals(type, endpoints.get(service), service + " endpoint (called by " + functions + ")");
        });
        Set<String> unused = new TreeSet<>(endpoints.keySet());
        unused.removeAll(callers.keySet());
        assertEquals(Set.of(), unused, "endpoints no function calls (an interface endpoint costs by the hour)");
    }

    private static Set<String> services(Path module) {
        Set<String> services = SdkClients.of(module);
        assertFalse(services.contains("core"), module.toString());
        return services;
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
