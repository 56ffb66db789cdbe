package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.pastebin.local.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;

/**
 * The built EdgeAclFunction (edge-acl-function's artifact, invoked as {@code infra/local/invoke} does) with
 * CloudFormation's own custom-resource events, against LocalStack's CloudFormation standing in for us-east-1 (the
 * function's {@code PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT}); a local HTTP server stands in for the pre-signed
 * ResponseURL and holds every answer: SUCCESS with the WebAclArn, or FAILED with a reason, on every path.
 *
 * <p>What LocalStack can and cannot show: LocalStack 4.14.0 (community) has no WAFv2, but its CloudFormation creates
 * infra/edge-waf.yaml anyway, deploying the web ACL and the IP set as placeholders ("not supported but was deployed
 * as a fallback"), whose WebAclArn output is the literal "unknown". So Create, Update (with a change, and without)
 * and Delete run the real, packed template, and prove the function's stack handling and answers, not AWS WAF's
 * acceptance of the rules (EdgeTemplateTest and cfn-lint hold those). A stack that fails cannot be made of
 * edge-waf.yaml here (nothing in it fails in LocalStack): that case runs a stand-in template,
 * src/test/resources/edge-acl/failing-stack.yaml, through the function's PASTEBIN_EDGE_ACL_TEMPLATE setting.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EdgeAclFunctionIT {

    private static final String REQUESTING_STACK =
            "edge-it-" + UUID.randomUUID().toString().substring(0, 8);
    /** Named after the requesting stack and its region (the events' StackId is in eu-west-1). */
    private static final String ACL_STACK = REQUESTING_STACK + "-eu-west-1-edge-waf";
    /** The PhysicalResourceId of a Create that made no stack: its rollback's Delete deletes nothing. */
    private static final String NOT_CREATED = "not-created:" + ACL_STACK;

    private static final BlockingQueue<JsonNode> ANSWERS = new LinkedBlockingQueue<>();
    private static HttpServer responseUrl;
    private static CloudFormationClient cloudFormation;

    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws IOException {
        responseUrl = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        responseUrl.createContext("/", exchange -> {
            try (exchange) {
                ObjectNode answer = (ObjectNode) Json.MAPPER.readTree(exchange.getRequestBody());
                answer.put("method", exchange.getRequestMethod());
                ANSWERS.add(answer);
                exchange.sendResponseHeaders(200, -1);
            }
        });
        responseUrl.start();
        cloudFormation = CloudFormationClient.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(endpoint())
                .build();
    }

    @AfterAll
    static void stop() {
        for (String stack :
                new String[] {ACL_STACK, "edge-it-failing-" + REQUESTING_STACK.substring(8) + "-eu-west-1-edge-waf"}) {
            try {
                cloudFormation.deleteStack(b -> b.stackName(stack));
            } catch (CloudFormationException e) {
                // gone already
            }
        }
        cloudFormation.close();
        responseUrl.stop(0);
    }

    @Test
    @Order(1)
    void createMakesTheStackInUsEast1AndAnswersItsWebAclArn() throws Exception {
        JsonNode answer = invoke(event("Create", REQUESTING_STACK, null, 100), Map.of());

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(ACL_STACK, answer.path("PhysicalResourceId").asText());
        Stack stack = stack(ACL_STACK).orElseThrow();
        assertEquals("CREATE_COMPLETE", stack.stackStatusAsString());
        assertEquals(output(stack), answer.path("Data").path("WebAclArn").asText(), answer.toString());
        assertFalse(output(stack).isBlank());
        assertEquals("100", parameter(stack, "CreateRateLimit"));
        assertEquals(REQUESTING_STACK + "-eu-west-1", parameter(stack, "NamePrefix"));
    }

    @Test
    @Order(2)
    void updateChangesTheStacksParametersUnderTheSameId() throws Exception {
        JsonNode answer = invoke(event("Update", REQUESTING_STACK, ACL_STACK, 150), Map.of());

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(ACL_STACK, answer.path("PhysicalResourceId").asText());
        Stack stack = stack(ACL_STACK).orElseThrow();
        assertEquals("150", parameter(stack, "CreateRateLimit"));
        assertEquals(output(stack), answer.path("Data").path("WebAclArn").asText());
    }

    @Test
    @Order(3)
    void anUpdateThatChangesNothingSucceeds() throws Exception {
        JsonNode answer = invoke(event("Update", REQUESTING_STACK, ACL_STACK, 150), Map.of());

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(ACL_STACK, answer.path("PhysicalResourceId").asText());
        assertFalse(answer.path("Data").path("WebAclArn").asText().isBlank(), answer.toString());
    }

    @Test
    @Order(4)
    void deleteRemovesTheStack() throws Exception {
        JsonNode answer = invoke(event("Delete", REQUESTING_STACK, ACL_STACK, 150), Map.of());

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(ACL_STACK, answer.path("PhysicalResourceId").asText());
        assertTrue(
                stack(ACL_STACK)
                        .map(s -> s.stackStatusAsString().equals("DELETE_COMPLETE"))
                        .orElse(true),
                "the stack is gone");
    }

    @Test
    @Order(5)
    void aStackThatFailsIsAnsweredFailedWithItsReasonAndItsRollbackDeletesIt() throws Exception {
        String requesting = "edge-it-failing-" + REQUESTING_STACK.substring(8);
        Map<String, String> standIn = Map.of(
                "PASTEBIN_EDGE_ACL_TEMPLATE",
                TestSupport.repositoryRoot()
                        .resolve("infra/src/test/resources/edge-acl/failing-stack.yaml")
                        .toString());
        ObjectNode create = event("Create", requesting, null, 100);
        create.remove("ResourceProperties");

        JsonNode answer = invoke(create, standIn);

        assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
        assertEquals(
                requesting + "-eu-west-1-edge-waf",
                answer.path("PhysicalResourceId").asText());
        String reason = answer.path("Reason").asText();
        // the waiter stops at CREATE_FAILED or after the rollback: either way the failed resource's own reason
        assertTrue(
                reason.matches("stack \\S+ is (CREATE_FAILED|ROLLBACK_COMPLETE): NotAFifoName: .*\\.fifo.*"), reason);

        // CloudFormation then deletes the failed resource: that succeeds, and the stack is gone.
        ObjectNode delete = event("Delete", requesting, requesting + "-eu-west-1-edge-waf", 100);
        delete.remove("ResourceProperties");
        JsonNode deleted = invoke(delete, standIn);
        assertEquals("SUCCESS", deleted.path("Status").asText(), deleted.toString());
        assertTrue(stack(requesting + "-eu-west-1-edge-waf")
                .map(s -> s.stackStatusAsString().equals("DELETE_COMPLETE"))
                .orElse(true));
    }

    @Test
    @Order(6)
    void aFunctionThatCannotStartAnswersFailed() throws Exception {
        JsonNode answer = invoke(
                event("Create", REQUESTING_STACK, null, 100),
                Map.of(
                        "PASTEBIN_EDGE_ACL_TEMPLATE",
                        work.resolve("no-such-template.yaml").toString()));

        assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
        assertEquals(NOT_CREATED, answer.path("PhysicalResourceId").asText());
        assertTrue(answer.path("Reason").asText().contains("cannot read the template"), answer.toString());
        assertTrue(stack(ACL_STACK).isEmpty()
                || stack(ACL_STACK).get().stackStatusAsString().equals("DELETE_COMPLETE"));
    }

    /** A margin as long as the function's Timeout leaves no time to wait: nothing starts, FAILED at once. */
    @Test
    @Order(7)
    void theDeadlineGuardAnswersFailedWhenNoTimeIsLeft() throws Exception {
        JsonNode answer = invoke(
                event("Create", REQUESTING_STACK, null, 100), Map.of("PASTEBIN_EDGE_ACL_DEADLINE_MARGIN", "900"));

        assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
        assertEquals(NOT_CREATED, answer.path("PhysicalResourceId").asText());
        assertTrue(answer.path("Reason").asText().contains("no time left"), answer.toString());
        assertTrue(stack(ACL_STACK).isEmpty()
                || stack(ACL_STACK).get().stackStatusAsString().equals("DELETE_COMPLETE"));
    }

    /** Invokes the built function once with the event; returns what it PUT to the ResponseURL. */
    private static JsonNode invoke(ObjectNode event, Map<String, String> settings) throws Exception {
        Path eventFile = Files.createTempFile(work, "event", ".json");
        Files.writeString(eventFile, Json.MAPPER.writeValueAsString(event));
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT", endpoint().toString());
        variables.put("PASTEBIN_EDGE_ACL_POLL_INTERVAL", "1");
        variables.putAll(settings);
        Path envVars = Files.createTempFile(work, "env", ".json");
        Files.writeString(envVars, Json.MAPPER.writeValueAsString(Map.of("EdgeAclFunction", variables)));

        var run = LocalInvokeIT.invoke(
                Map.of(), "EdgeAclFunction", eventFile.toString(), "--env-vars", envVars.toString());

        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        JsonNode answer = ANSWERS.poll(10, TimeUnit.SECONDS);
        assertTrue(answer != null, "an answer at the ResponseURL; the function's output: " + run.stderr());
        assertEquals("PUT", answer.path("method").asText());
        assertEquals(event.path("RequestId").asText(), answer.path("RequestId").asText());
        assertEquals(event.path("StackId").asText(), answer.path("StackId").asText());
        assertEquals("EdgeWebAcl", answer.path("LogicalResourceId").asText());
        assertTrue(ANSWERS.isEmpty(), "exactly one answer");
        return answer;
    }

    /** A custom-resource event as CloudFormation sends it (from a stack in another region than the ACL's). */
    private static ObjectNode event(
            String requestType, String requestingStack, String physicalId, int createRateLimit) {
        ObjectNode event = Json.MAPPER.createObjectNode();
        String token = "arn:aws:lambda:eu-west-1:000000000000:function:" + requestingStack + "-EdgeAclFunction:live";
        event.put("RequestType", requestType);
        event.put("ServiceToken", token);
        event.put(
                "ResponseURL",
                "http://127.0.0.1:" + responseUrl.getAddress().getPort()
                        + "/cloudformation-custom-resource-response-euwest1/answer?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                        + "&X-Amz-Signature=0123abcd");
        event.put(
                "StackId",
                "arn:aws:cloudformation:eu-west-1:000000000000:stack/" + requestingStack
                        + "/5b3c1a40-1f2e-11ef-9a7b-0a1b2c3d4e5f");
        event.put("RequestId", UUID.randomUUID().toString());
        event.put("LogicalResourceId", "EdgeWebAcl");
        event.put("ResourceType", "Custom::EdgeWebAcl");
        if (physicalId != null) {
            event.put("PhysicalResourceId", physicalId);
        }
        ObjectNode properties = event.putObject("ResourceProperties");
        properties.put("ServiceToken", token);
        properties.put("ServiceTimeout", "960");
        properties.put("ArtifactVersion", "arn:aws:lambda:eu-west-1:000000000000:function:edge-acl:1");
        ObjectNode parameters = properties.putObject("StackParameters");
        parameters.put("CreateRateLimit", Integer.toString(createRateLimit));
        parameters.put("ReadRateLimit", "2000");
        // as infra/template.yaml passes it: the stack's name and region start the web ACL's and IP set's names
        parameters.put("NamePrefix", requestingStack + "-eu-west-1");
        if (requestType.equals("Update")) {
            event.set("OldResourceProperties", properties.deepCopy());
        }
        return event;
    }

    private static Optional<Stack> stack(String name) {
        try {
            return cloudFormation.describeStacks(b -> b.stackName(name)).stacks().stream()
                    .findFirst();
        } catch (CloudFormationException e) {
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            return Optional.empty();
        }
    }

    private static String output(Stack stack) {
        return stack.outputs().stream()
                .filter(o -> o.outputKey().equals("WebAclArn"))
                .findFirst()
                .orElseThrow()
                .outputValue();
    }

    private static String parameter(Stack stack, String key) {
        return stack.parameters().stream()
                .filter(p -> p.parameterKey().equals(key))
                .map(Parameter::parameterValue)
                .findFirst()
                .orElseThrow();
    }

    private static URI endpoint() {
        return URI.create(System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566"));
    }
}
