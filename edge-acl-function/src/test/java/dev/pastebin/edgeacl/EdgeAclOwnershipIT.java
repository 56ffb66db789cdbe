package dev.pastebin.edgeacl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pastebin.customresource.support.LambdaContext;
import dev.pastebin.customresource.support.ResponseUrl;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.Tag;
import software.amazon.awssdk.services.cloudformation.model.UpdateStackRequest;

/**
 * Whose us-east-1 stack the function touches, against LocalStack's CloudFormation standing in for us-east-1 (the
 * handler in this JVM, its client pointed there by PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT; a local server stands
 * in for the ResponseURL). Two stacks of one name in two regions each get a stack of their own; a stack already
 * under the name a Create wants is someone else's, so the Create fails and the Delete that follows leaves it; an
 * Update or Delete never touches a stack whose owner tag names another stack. Edge-waf.yaml deploys in LocalStack
 * as placeholders (EdgeAclFunctionIT in infra says what that shows); the stacks of "someone else" are a one-resource
 * stand-in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeAclOwnershipIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The tag that names the stack a us-east-1 stack belongs to (its StackId). */
    private static final String OWNER_TAG = "pastebin:owner-stack-id";

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final List<String> stacks = new ArrayList<>();
    private CloudFormationClient cloudFormation;
    private ResponseUrl responseUrl;
    private EdgeAclHandler handler;

    @BeforeAll
    void start() throws IOException {
        responseUrl = new ResponseUrl();
        cloudFormation = CloudFormationClient.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(endpoint())
                .build();
        handler = new EdgeAclHandler(
                Map.of(
                        "PASTEBIN_EDGE_ACL_CLOUDFORMATION_ENDPOINT",
                        endpoint().toString(),
                        "PASTEBIN_EDGE_ACL_POLL_INTERVAL",
                        "1"),
                EdgeAclStacks::open);
    }

    @AfterAll
    void stop() {
        for (String stack : stacks) {
            try {
                cloudFormation.deleteStack(b -> b.stackName(stack));
            } catch (CloudFormationException e) {
                // gone already
            }
        }
        cloudFormation.close();
        responseUrl.close();
    }

    @Test
    void twoStacksOfOneNameInTwoRegionsEachHaveTheirOwnStack() throws Exception {
        String name = "edge-own-" + run + "-regions";
        String inIreland = stackId("eu-west-1", name);
        String inOregon = stackId("us-west-2", name);

        JsonNode ireland = answer(event("Create", inIreland, null));
        JsonNode oregon = answer(event("Create", inOregon, null));

        assertEquals("SUCCESS", ireland.path("Status").asText(), ireland.toString());
        assertEquals("SUCCESS", oregon.path("Status").asText(), oregon.toString());
        String irelandStack = ireland.path("PhysicalResourceId").asText();
        String oregonStack = oregon.path("PhysicalResourceId").asText();
        stacks.add(irelandStack);
        stacks.add(oregonStack);
        assertNotEquals(irelandStack, oregonStack);
        assertTrue(irelandStack.contains("eu-west-1") && oregonStack.contains("us-west-2"), irelandStack);
        assertEquals(Optional.of(inIreland), ownerTag(stack(irelandStack).orElseThrow()));
        assertEquals(Optional.of(inOregon), ownerTag(stack(oregonStack).orElseThrow()));
    }

    /**
     * The name a Create wants is taken (a stack left over, or another stack's): FAILED, with a PhysicalResourceId
     * that is not that stack's name, so the Delete of CloudFormation's rollback recognises it and deletes nothing.
     */
    @Test
    void aCreateThatFindsItsStackThereFailsAndItsRollbackDeletesNothing() throws Exception {
        String name = "edge-own-" + run + "-taken";
        String requesting = stackId("eu-west-1", name);
        String taken = EdgeAclRequest.stackNameFor(requesting);
        createOtherOwnersStack(taken, stackId("eu-west-1", name).replace("5b3c1a40", "0ther000"));

        JsonNode created = answer(event("Create", requesting, null));

        assertEquals("FAILED", created.path("Status").asText(), created.toString());
        assertTrue(created.path("Reason").asText().contains("already exists"), created.toString());
        String physicalId = created.path("PhysicalResourceId").asText();
        assertNotEquals(taken, physicalId, "not the existing stack's name");

        JsonNode deleted = answer(event("Delete", requesting, physicalId));

        assertEquals("SUCCESS", deleted.path("Status").asText(), deleted.toString());
        assertEquals(physicalId, deleted.path("PhysicalResourceId").asText());
        assertEquals("CREATE_COMPLETE", stack(taken).orElseThrow().stackStatusAsString(), "left as it was");
    }

    /** A stack whose owner tag names another stack (a namesake, deleted and made again) is never updated or deleted. */
    @Test
    void anUpdateOrDeleteOfAnotherOwnersStackLeavesIt() throws Exception {
        String name = "edge-own-" + run + "-other";
        String requesting = stackId("eu-west-1", name);
        String stackName = EdgeAclRequest.stackNameFor(requesting);
        createOtherOwnersStack(stackName, requesting.replace("5b3c1a40", "0ther000"));

        JsonNode updated = answer(event("Update", requesting, stackName));

        assertEquals("FAILED", updated.path("Status").asText(), updated.toString());
        assertEquals(stackName, updated.path("PhysicalResourceId").asText());
        assertEquals("untouched", parameter(stack(stackName).orElseThrow(), "Marker"), "not updated");

        JsonNode deleted = answer(event("Delete", requesting, stackName));

        assertEquals("SUCCESS", deleted.path("Status").asText(), deleted.toString());
        assertEquals("CREATE_COMPLETE", stack(stackName).orElseThrow().stackStatusAsString(), "not deleted");
    }

    /** Its own stack, tagged at its Create, a stack updates and deletes as before. */
    @Test
    void aStackUpdatesAndDeletesItsOwn() throws Exception {
        String requesting = stackId("eu-west-1", "edge-own-" + run + "-own");
        JsonNode created = answer(event("Create", requesting, null));
        String stackName = created.path("PhysicalResourceId").asText();
        stacks.add(stackName);
        assertEquals("SUCCESS", created.path("Status").asText(), created.toString());

        var update = event("Update", requesting, stackName);
        update.setResourceProperties(Map.of("StackParameters", Map.of("CreateRateLimit", "150")));
        JsonNode updated = answer(update);
        assertEquals("SUCCESS", updated.path("Status").asText(), updated.toString());
        assertEquals("150", parameter(stack(stackName).orElseThrow(), "CreateRateLimit"));

        JsonNode deleted = answer(event("Delete", requesting, stackName));
        assertEquals("SUCCESS", deleted.path("Status").asText(), deleted.toString());
        assertTrue(stack(stackName)
                .map(s -> s.stackStatusAsString().equals("DELETE_COMPLETE"))
                .orElse(true));
    }

    /**
     * A stack created before the owner tag (named {@code <stack>-edge-waf}, without the region) is this stack's: its
     * Update carries on, with the owner tag, so that later Updates and the Delete recognise it. LocalStack 4.14
     * ignores UpdateStack's tags (AWS applies them), so the test reads the tags from the request the function sent.
     */
    @Test
    void aStackFromBeforeTheOwnerTagIsTaggedByItsUpdate() throws Exception {
        String requesting = stackId("eu-west-1", "edge-own-" + run + "-legacy");
        String legacy = EdgeAclRequest.legacyNameFor(requesting);
        String template = EdgeAclStacks.template(EdgeAclSettings.PACKED_TEMPLATE);
        cloudFormation.createStack(b -> b.stackName(legacy)
                .templateBody(template)
                .parameters(Parameter.builder()
                        .parameterKey("CreateRateLimit")
                        .parameterValue("100")
                        .build()));
        stacks.add(legacy);
        cloudFormation.waiter().waitUntilStackCreateComplete(b -> b.stackName(legacy));
        List<UpdateStackRequest> sent = new CopyOnWriteArrayList<>();
        EdgeAclHandler recording = new EdgeAclHandler(
                Map.of("PASTEBIN_EDGE_ACL_POLL_INTERVAL", "1"),
                settings -> new EdgeAclStacks(
                        CloudFormationClient.builder()
                                .region(Region.US_EAST_1)
                                .endpointOverride(endpoint())
                                .overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                                    @Override
                                    public void beforeExecution(
                                            Context.BeforeExecution context, ExecutionAttributes attributes) {
                                        if (context.request() instanceof UpdateStackRequest update) {
                                            sent.add(update);
                                        }
                                    }
                                }))
                                .build(),
                        template,
                        settings.pollInterval()));

        var update = event("Update", requesting, legacy);
        update.setResourceProperties(Map.of("StackParameters", Map.of("CreateRateLimit", "150")));
        recording.handleRequest(update, new LambdaContext(900_000));
        JsonNode updated = JSON.readTree(responseUrl.next().body());

        assertEquals("SUCCESS", updated.path("Status").asText(), updated.toString());
        assertEquals(legacy, updated.path("PhysicalResourceId").asText());
        assertEquals("150", parameter(stack(legacy).orElseThrow(), "CreateRateLimit"));
        assertEquals(1, sent.size());
        assertEquals(
                List.of(Tag.builder().key(OWNER_TAG).value(requesting).build()),
                sent.getFirst().tags());
    }

    private void createOtherOwnersStack(String stackName, String owner) throws IOException {
        String template;
        try (InputStream in = getClass().getResourceAsStream("/edge-acl/other-owners-stack.yaml")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        cloudFormation.createStack(b -> b.stackName(stackName)
                .templateBody(template)
                .tags(Tag.builder().key(OWNER_TAG).value(owner).build()));
        stacks.add(stackName);
        cloudFormation.waiter().waitUntilStackCreateComplete(b -> b.stackName(stackName));
    }

    private JsonNode answer(CloudFormationCustomResourceEvent event) throws Exception {
        handler.handleRequest(event, new LambdaContext(900_000));
        JsonNode answer = JSON.readTree(responseUrl.next().body());
        assertEquals(event.getRequestId(), answer.path("RequestId").asText());
        return answer;
    }

    private CloudFormationCustomResourceEvent event(String type, String stackId, String physicalId) {
        var event = new CloudFormationCustomResourceEvent();
        event.setRequestType(type);
        event.setResponseUrl(responseUrl.uri("/answer?X-Amz-Signature=abc").toString());
        event.setStackId(stackId);
        event.setRequestId(UUID.randomUUID().toString());
        event.setLogicalResourceId("EdgeWebAcl");
        event.setResourceType("Custom::EdgeWebAcl");
        event.setPhysicalResourceId(physicalId);
        event.setResourceProperties(Map.of("StackParameters", Map.of("CreateRateLimit", "100")));
        return event;
    }

    private static String stackId(String region, String name) {
        return "arn:aws:cloudformation:" + region + ":000000000000:stack/" + name
                + "/5b3c1a40-1f2e-11ef-9a7b-0a1b2c3d4e5f";
    }

    private Optional<Stack> stack(String name) {
        try {
            return cloudFormation.describeStacks(b -> b.stackName(name)).stacks().stream()
                    .findFirst();
        } catch (CloudFormationException e) {
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<String> ownerTag(Stack stack) {
        return stack.tags().stream()
                .filter(t -> t.key().equals(OWNER_TAG))
                .map(Tag::value)
                .findFirst();
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
