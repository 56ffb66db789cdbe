package dev.pastebin.edgeacl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pastebin.customresource.support.LambdaContext;
import dev.pastebin.customresource.support.ResponseUrl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** The handler's answers that need no CloudFormation: each is PUT to the ResponseURL, and a refused PUT is told. */
class EdgeAclHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STACK_ID =
            "arn:aws:cloudformation:eu-west-1:123456789012:stack/pastebin/5b3c1a40-1f2e-11ef-9a7b-0a1b2c3d4e5f";

    private static CloudFormationCustomResourceEvent event(String type, String stackId, ResponseUrl responseUrl) {
        var event = new CloudFormationCustomResourceEvent();
        event.setRequestType(type);
        event.setResponseUrl(responseUrl.uri("/answer?X-Amz-Signature=abc").toString());
        event.setStackId(stackId);
        event.setRequestId("5d478078-13e9-baf0-464a-7ef285ecc786");
        event.setLogicalResourceId("EdgeWebAcl");
        event.setResourceType("Custom::EdgeWebAcl");
        return event;
    }

    /** What the code wrote to stderr (slf4j-simple's target, read at each log call) while it ran. */
    private static String stderrOf(Callable<?> code) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code.call();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /**
     * S3 refuses the PUT (403): CloudFormation never hears the answer, so the refusal is an ERROR line that names
     * the status, and the invocation still ends normally.
     */
    @Test
    void aRefusedAnswerIsAnErrorLineNamingTheStatus() throws Exception {
        EdgeAclHandler handler = new EdgeAclHandler(Map.of(), settings -> {
            throw new AssertionError("an invalid request starts nothing");
        });
        try (ResponseUrl refusing = new ResponseUrl(403)) {
            String stderr = stderrOf(() ->
                    handler.handleRequest(event("Create", "not-a-stack-arn", refusing), new LambdaContext(900_000)));

            JsonNode answer = JSON.readTree(refusing.next().body());
            assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
            assertTrue(
                    stderr.lines().anyMatch(line -> line.contains("ERROR") && line.contains("HTTP 403")),
                    "an ERROR line naming the status:\n" + stderr);
        }
    }

    /** An Error (a class missing from the artifact, memory) while the function starts is answered FAILED too. */
    @Test
    void anErrorWhileStartingAnswersFailed() throws Exception {
        EdgeAclHandler handler = new EdgeAclHandler(Map.of(), settings -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/cloudformation/CloudFormationClient");
        });
        try (ResponseUrl responseUrl = new ResponseUrl()) {
            var response = handler.handleRequest(event("Create", STACK_ID, responseUrl), new LambdaContext(900_000));

            JsonNode answer = JSON.readTree(responseUrl.next().body());
            assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
            assertEquals("FAILED", response.getStatus().name());
            assertTrue(answer.path("Reason").asText().contains("NoClassDefFoundError"), answer.toString());
        }
    }
}
