package dev.pastebin.edgeacl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EdgeAclRequestTest {

    private static final String STACK_ID =
            "arn:aws:cloudformation:eu-west-1:123456789012:stack/pastebin/5b3c1a40-1f2e-11ef-9a7b-0a1b2c3d4e5f";

    @ParameterizedTest
    @CsvSource({"Create, CREATE", "Update, UPDATE", "Delete, DELETE"})
    void eachRequestTypeIsOneStackOperation(String requestType, StackOperation operation) {
        assertEquals(operation, StackOperation.of(requestType));
    }

    @Test
    void anUnknownRequestTypeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StackOperation.of("Replace"));
        assertThrows(IllegalArgumentException.class, () -> StackOperation.of(null));
    }

    @Test
    void theStackInUsEast1IsNamedAfterTheRequestingStackAndItsRegion() {
        assertEquals("pastebin-eu-west-1-edge-waf", EdgeAclRequest.stackNameFor(STACK_ID));
        assertEquals(
                "pastebin-cn-north-1-edge-waf",
                EdgeAclRequest.stackNameFor(
                        "arn:aws-cn:cloudformation:cn-north-1:123456789012:stack/pastebin/0f1e2d3c"));
        assertEquals("pastebin-edge-waf", EdgeAclRequest.legacyNameFor(STACK_ID));
        assertThrows(IllegalArgumentException.class, () -> EdgeAclRequest.stackNameFor("pastebin"));
        assertThrows(IllegalArgumentException.class, () -> EdgeAclRequest.stackNameFor(null));
    }

    /** CloudFormation's limit is 128 characters ([A-Za-z][-A-Za-z0-9]*): a longer name is refused, not cut. */
    @Test
    void aNameTooLongForCloudFormationIsRefused() {
        String fits = "p".repeat(128 - "-ap-southeast-4-edge-waf".length());
        String name = EdgeAclRequest.stackNameFor(
                "arn:aws:cloudformation:ap-southeast-4:123456789012:stack/" + fits + "/0f1e2d3c");
        assertEquals(128, name.length());
        assertTrue(name.matches("[A-Za-z][-A-Za-z0-9]*"), name);
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> EdgeAclRequest.stackNameFor(
                        "arn:aws:cloudformation:ap-southeast-4:123456789012:stack/" + fits + "x/0f1e2d3c"));
        assertTrue(e.getMessage().contains("EdgeWebAclArn"), e.getMessage());
    }

    @Test
    void updateAndDeleteActOnTheStackCloudFormationNames() {
        CloudFormationCustomResourceEvent event = event("Delete");
        event.setPhysicalResourceId("pastebin-edge-waf");
        assertEquals("pastebin-edge-waf", EdgeAclRequest.from(event).stackName());
        assertEquals(STACK_ID, EdgeAclRequest.from(event).owner());
        event.setPhysicalResourceId(null);
        assertThrows(IllegalArgumentException.class, () -> EdgeAclRequest.from(event));
    }

    @Test
    void aNotCreatedIdIsNeverAStackName() {
        String id = EdgeAclRequest.notCreated("pastebin-eu-west-1-edge-waf");
        assertTrue(EdgeAclRequest.isNotCreated(id));
        assertFalse(id.matches("[A-Za-z][-A-Za-z0-9]*"), id);
        assertFalse(EdgeAclRequest.isNotCreated("pastebin-eu-west-1-edge-waf"));
    }

    @Test
    void theStackParametersPropertyBecomesTheStacksParametersAndNothingElseDoes() {
        CloudFormationCustomResourceEvent event = event("Update");
        event.setPhysicalResourceId("pastebin-eu-west-1-edge-waf");
        event.setResourceProperties(Map.of(
                "ServiceToken", "arn:aws:lambda:eu-west-1:123456789012:function:edge-acl",
                "ArtifactVersion", "arn:aws:lambda:eu-west-1:123456789012:function:edge-acl:7",
                "StackParameters", Map.of("CreateRateLimit", "100", "ReadRateLimit", 2000)));

        EdgeAclRequest request = EdgeAclRequest.from(event);

        assertEquals(StackOperation.UPDATE, request.operation());
        assertEquals("pastebin-eu-west-1-edge-waf", request.stackName());
        assertEquals(Map.of("CreateRateLimit", "100", "ReadRateLimit", "2000"), request.parameters());
    }

    @Test
    void withoutStackParametersTheTemplatesDefaultsApply() {
        CloudFormationCustomResourceEvent event = event("Create");
        assertEquals(Map.of(), EdgeAclRequest.from(event).parameters());
        event.setResourceProperties(Map.of("StackParameters", "100"));
        assertThrows(IllegalArgumentException.class, () -> EdgeAclRequest.from(event));
    }

    private static CloudFormationCustomResourceEvent event(String requestType) {
        CloudFormationCustomResourceEvent event = new CloudFormationCustomResourceEvent();
        event.setRequestType(requestType);
        event.setStackId(STACK_ID);
        return event;
    }
}
