package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pastebin.customresource.support.LambdaContext;
import dev.pastebin.customresource.support.ResponseUrl;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
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
                .handleRequest(event("Delete", "pastebin-DatabaseSchema", properties()), new LambdaContext(300_000));
        JsonNode answer = answer();
        assertEquals("SUCCESS", answer.get("Status").asText(), answer.toString());
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
        assertEquals(
                "5d478078-13e9-baf0-464a-7ef285ecc786", answer.get("RequestId").asText());
        assertEquals("DatabaseSchema", answer.get("LogicalResourceId").asText());
        assertTrue(answer.get("StackId").asText().endsWith("stack/pastebin/4f1c2e60-1a2b-11ef-9c3d-0a1b2c3d4e5f"));
        assertEquals(0, contextStarts.get());
    }

    /**
     * S3 refuses the PUT (403: in a VPC whose S3 endpoint policy does not allow CloudFormation's response bucket):
     * CloudFormation never hears the answer, so the refusal is an ERROR that names the status, and the invocation
     * still ends normally (there is no one else to tell).
     */
    @Test
    void aRefusedAnswerIsAnErrorNamingTheStatus() throws Exception {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(logged);
        try (ResponseUrl refusing = new ResponseUrl(403)) {
            var event = event("Delete", "pastebin-DatabaseSchema", properties());
            event.setResponseUrl(refusing.uri("/answer?X-Amz-Signature=abc").toString());

            var response = handler(() -> {
                        throw new AssertionError("no context for a Delete");
                    })
                    .handleRequest(event, new LambdaContext(300_000));

            assertEquals("SUCCESS", response.getStatus().name(), "the handler returns its answer");
            assertEquals("/answer", refusing.next().path());
        } finally {
            root.detachAppender(logged);
        }
        assertTrue(
                logged.list.stream()
                        .anyMatch(e -> e.getLevel() == Level.ERROR
                                && e.getFormattedMessage().contains("HTTP 403")),
                "an ERROR naming the status: " + logged.list);
    }

    @Test
    void aContextThatCannotStartAnswersFailedWithWhy() throws Exception {
        var handler = handler(() -> {
            throw new ConfigurationException("Error resolving property value [pastebin.migration.deadline-margin]");
        });
        handler.handleRequest(event("Create", null, properties()), new LambdaContext(300_000));
        JsonNode answer = answer();
        assertEquals("FAILED", answer.get("Status").asText(), answer.toString());
        assertTrue(
                answer.get("Reason").asText().contains("cannot start")
                        && answer.get("Reason").asText().contains("pastebin.migration.deadline-margin"),
                answer.toString());
        // The id a Create gives is the one CloudFormation sends back with the Delete that follows a failed Create.
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());

        // An Update tries to start the context again (a setting fixed by the deploy that sent it).
        handler.handleRequest(event("Update", "pastebin-DatabaseSchema", properties()), new LambdaContext(300_000));
        assertEquals("FAILED", answer().get("Status").asText());
        assertEquals(2, contextStarts.get());
    }

    /** An Error (a class missing from the artifact, memory) at the context's start is answered like an exception. */
    @Test
    void anErrorAtTheContextsStartAnswersFailed() throws Exception {
        var response = handler(() -> {
                    throw new NoClassDefFoundError("io/micronaut/context/DefaultApplicationContext");
                })
                .handleRequest(event("Create", null, properties()), new LambdaContext(300_000));

        JsonNode answer = answer();
        assertEquals("FAILED", answer.get("Status").asText(), answer.toString());
        assertEquals("FAILED", response.getStatus().name());
        String reason = answer.get("Reason").asText();
        assertTrue(reason.contains("cannot start") && reason.contains("DefaultApplicationContext"), reason);
        assertEquals("pastebin-DatabaseSchema", answer.get("PhysicalResourceId").asText());
    }

    /**
     * A run past its deadline is answered FAILED and its context retired: its worker may go on, but the next request
     * starts a context of its own, whose connections were never aborted.
     */
    @Test
    void aRunPastItsDeadlineRetiresItsContext() throws Exception {
        var handler = handler(() -> ApplicationContext.run(Map.of(
                "pastebin.test.stalled-schema", "true",
                // 50 ms of the 60 s left are the run's
                "pastebin.migration.deadline-margin", "59950ms")));

        handler.handleRequest(event("Create", null, properties()), new LambdaContext(60_000));
        JsonNode first = answer();
        handler.handleRequest(event("Update", "pastebin-DatabaseSchema", properties()), new LambdaContext(60_000));
        JsonNode second = answer();

        assertEquals("FAILED", first.get("Status").asText(), first.toString());
        assertTrue(first.get("Reason").asText().contains("did not finish"), first.toString());
        assertEquals("FAILED", second.get("Status").asText(), second.toString());
        assertEquals(2, contextStarts.get(), "the second request started a context of its own");
    }

    @Test
    void propertiesWithoutRoleSecretsAnswerFailedNamingTheProperty() throws Exception {
        handler(() -> {
                    throw new AssertionError("the properties are checked first");
                })
                .handleRequest(
                        event("Update", "pastebin-DatabaseSchema", Map.of("OwnerSecretArn", "arn:owner")),
                        new LambdaContext(300_000));
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
}
