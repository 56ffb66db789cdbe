package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The answers that need no database: every one is PUT to the response URL, with the fields CloudFormation
 * reads. The paths through PostgreSQL are DatabaseMigrationFunctionIT's.
 */
class DatabaseMigrationHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResponseUrl responseUrl;
    private final AtomicInteger contextStarts = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        responseUrl = new ResponseUrl();
    }

    @AfterEach
    void stop() {
        responseUrl.close();
    }

    private DatabaseMigrationHandler handler(Supplier<ApplicationContext> starter) {
        return new DatabaseMigrationHandler(
                () -> {
                    contextStarts.incrementAndGet();
                    return starter.get();
                },
                UrlConnectionHttpClient.create());
    }

    private CloudFormationCustomResourceEvent event(String type, String physicalId, Map<String, Object> properties) {
        var event = new CloudFormationCustomResourceEvent();
        event.setRequestType(type);
        event.setServiceToken("arn:aws:lambda:eu-west-1:123456789012:function:migrate");
        event.setResponseUrl(responseUrl.uri("/answer?X-Amz-Signature=abc").toString());
        event.setStackId(
                "arn:aws:cloudformation:eu-west-1:123456789012:stack/pastebin/4f1c2e60-1a2b-11ef-9c3d-0a1b2c3d4e5f");
        event.setRequestId("5d478078-13e9-baf0-464a-7ef285ecc786");
        event.setLogicalResourceId("DatabaseSchema");
        event.setPhysicalResourceId(physicalId);
        event.setResourceType("Custom::DatabaseSchema");
        event.setResourceProperties(properties);
        return event;
    }

    private static Map<String, Object> properties() {
        return Map.of(
                "ServiceToken",
                "arn:fn",
                "OwnerSecretArn",
                "arn:owner",
                "RoleSecrets",
                SchemaRequestTest.roleSecrets());
    }

    private JsonNode answer() throws Exception {
        ResponseUrl.Put put = responseUrl.next();
        assertEquals("/answer", put.path());
        return JSON.readTree(put.body());
    }

    @Test
    void deleteAnswersSuccessWithoutStartingAnything() throws Exception {
        handler(() -> {
                    throw new AssertionError("no context for a Delete");
                })
                .handleRequest(event("Delete", "pastebin-DatabaseSchema", properties()), new TestContext(300_000));
        JsonNode answer = answer();
        assertEquals("SUCCESS", answer.get("Status").asText(), answer.toString());
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
        assertEquals(
                "5d478078-13e9-baf0-464a-7ef285ecc786", answer.get("RequestId").asText());
        assertEquals("DatabaseSchema", answer.get("LogicalResourceId").asText());
        assertTrue(answer.get("StackId").asText().endsWith("stack/pastebin/4f1c2e60-1a2b-11ef-9c3d-0a1b2c3d4e5f"));
        assertEquals(0, contextStarts.get());
    }

    @Test
    void aContextThatCannotStartAnswersFailedWithWhy() throws Exception {
        var handler = handler(() -> {
            throw new ConfigurationException("Error resolving property value [pastebin.migration.deadline-margin]");
        });
        handler.handleRequest(event("Create", null, properties()), new TestContext(300_000));
        JsonNode answer = answer();
        assertEquals("FAILED", answer.get("Status").asText(), answer.toString());
        assertTrue(
                answer.get("Reason").asText().contains("cannot start")
                        && answer.get("Reason").asText().contains("pastebin.migration.deadline-margin"),
                answer.toString());
        // The id a Create gives is the one CloudFormation sends back with the Delete that follows a failed Create.
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());

        // An Update tries to start the context again (a setting fixed by the deploy that sent it).
        handler.handleRequest(event("Update", "pastebin-DatabaseSchema", properties()), new TestContext(300_000));
        assertEquals("FAILED", answer().get("Status").asText());
        assertEquals(2, contextStarts.get());
    }

    @Test
    void propertiesWithoutRoleSecretsAnswerFailedNamingTheProperty() throws Exception {
        handler(() -> {
                    throw new AssertionError("the properties are checked first");
                })
                .handleRequest(
                        event("Update", "pastebin-DatabaseSchema", Map.of("OwnerSecretArn", "arn:owner")),
                        new TestContext(300_000));
        JsonNode answer = answer();
        assertEquals("FAILED", answer.get("Status").asText());
        assertTrue(answer.get("Reason").asText().contains("RoleSecrets"), answer.toString());
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
        assertFalse(answer.has("Data") && answer.get("Data").has("SchemaVersion"), answer.toString());
    }

    @Test
    void thePhysicalIdIsTheGivenOneOrTheStacksNameAndLogicalId() {
        assertEquals("given", DatabaseMigrationHandler.physicalResourceId(event("Update", "given", properties())));
        assertEquals(
                "pastebin-DatabaseSchema",
                DatabaseMigrationHandler.physicalResourceId(event("Create", null, properties())));
    }

    /** A Lambda context with a fixed remaining time. */
    record TestContext(int remainingMillis) implements Context {

        @Override
        public String getAwsRequestId() {
            return "request";
        }

        @Override
        public String getLogGroupName() {
            return "/aws/lambda/migrate";
        }

        @Override
        public String getLogStreamName() {
            return "2024/01/01/[$LATEST]abc";
        }

        @Override
        public String getFunctionName() {
            return "migrate";
        }

        @Override
        public String getFunctionVersion() {
            return "$LATEST";
        }

        @Override
        public String getInvokedFunctionArn() {
            return "arn:aws:lambda:eu-west-1:123456789012:function:migrate";
        }

        @Override
        public CognitoIdentity getIdentity() {
            return null;
        }

        @Override
        public ClientContext getClientContext() {
            return null;
        }

        @Override
        public int getRemainingTimeInMillis() {
            return remainingMillis;
        }

        @Override
        public int getMemoryLimitInMB() {
            return 1024;
        }

        @Override
        public LambdaLogger getLogger() {
            return null;
        }
    }
}
