package dev.pastebin.local;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Lambda execution machinery on its own: real function JVMs started with the runtime interface client
 * against the in-process Runtime API, running the test-only handlers of the fixture template.
 */
class FunctionProcessIT {

    private static LocalFunctions functions;

    @BeforeAll
    static void start() {
        functions = new LocalFunctions(TestSupport.config(TestSupport.fixtureTemplate(), 0), "us-east-1");
    }

    @AfterAll
    static void stop() {
        functions.close();
    }

    private static byte[] apiEvent(String method, String path) {
        var request = new HttpApiEvents.Request(method, path, "a=1&a=2", List.of(Map.entry("X-Multi", "1"),
                Map.entry("x-multi", "2"), Map.entry("Cookie", "c1=v1; c2=v2")), "hi".getBytes(StandardCharsets.UTF_8),
                "127.0.0.1", "HTTP/1.1");
        var route = new FunctionDefinition.HttpRoute("Read", "GET", "/things/{id}");
        return Json.bytes(HttpApiEvents.event(request, route, Map.of("id", "abc"), new HttpApiEvents.Stage("000000000000",
                "local"), "req-1", Instant.now()));
    }

    @Test
    void httpEventIsDeserialisedByLambdasJavaRuntimeAndTheResponseComesBack() throws Exception {
        InvocationResult r = functions.get("ApiFunction").invoke(apiEvent("GET", "/things/abc"), "test");
        assertFalse(r.failed(), r.payloadText());
        JsonNode response = Json.MAPPER.readTree(r.payload());
        assertEquals(200, response.get("statusCode").asInt());
        String body = response.get("body").asText();
        assertTrue(body.contains("routeKey=GET /things/{id}\n"), body);
        assertTrue(body.contains("pathParameters={id=abc}\n"), body);
        assertTrue(body.contains("query={a=1,2}\n"), body);
        assertTrue(body.contains("cookies=[c1=v1, c2=v2]\n"), body);
        assertTrue(body.contains("x-multi=1,2\n"), body);
        assertTrue(body.contains("isBase64Encoded=true\n"), body);
        assertTrue(body.contains("functionName=ApiFunction\n"), body);
        assertTrue(body.contains("remainingMs>0=true\n"), body);
        assertTrue(body.contains("awsRequestId=" + r.requestId() + "\n"), body);
    }

    @Test
    void aThrowingHandlerGivesLambdasErrorDocumentAndTheProcessServesTheNextInvocation() throws Exception {
        LocalFunction api = functions.get("ApiFunction");
        InvocationResult failed = api.invoke(apiEvent("GET", "/things/x/fail"), "test");
        assertTrue(failed.failed());
        JsonNode error = Json.MAPPER.readTree(failed.payload());
        assertEquals("java.lang.IllegalStateException", error.get("errorType").asText());
        assertEquals("failure requested by /things/x/fail", error.get("errorMessage").asText());
        assertTrue(error.get("stackTrace").isArray());
        InvocationResult next = api.invoke(apiEvent("GET", "/things/abc"), "test");
        assertFalse(next.failed(), next.payloadText());
        assertFalse(next.coldStart(), "the same process serves the next invocation");
    }

    @Test
    void aCrashedProcessFailsItsInvocationAndIsReplacedOnTheNext() throws Exception {
        LocalFunction api = functions.get("ApiFunction");
        InvocationResult crashed = api.invoke(apiEvent("GET", "/things/x/crash"), "test");
        assertTrue(crashed.failed());
        JsonNode error = Json.MAPPER.readTree(crashed.payload());
        assertEquals("Runtime.ExitError", error.get("errorType").asText());
        assertTrue(error.get("errorMessage").asText().contains("exit status 3"), error.toString());
        InvocationResult next = api.invoke(apiEvent("GET", "/things/abc"), "test");
        assertFalse(next.failed(), next.payloadText());
        assertTrue(next.coldStart(), "a fresh process");
    }

    @Test
    void anInitErrorIsReturnedAsTheInvocationErrorEveryTime() throws Exception {
        LocalFunction broken = functions.get("BrokenFunction");
        for (int i = 0; i < 2; i++) {
            InvocationResult r = broken.invoke("{}".getBytes(StandardCharsets.UTF_8), "test");
            assertTrue(r.failed());
            JsonNode error = Json.MAPPER.readTree(r.payload());
            assertTrue(error.get("errorMessage").asText().contains("init failed on purpose"), error.toString());
            assertTrue(r.coldStart(), "init is retried in a fresh process");
        }
    }

    @Test
    void anInvocationPastItsTimeoutIsKilledAndReportedAsTimedOut() throws Exception {
        LocalFunction slow = functions.get("SlowFunction");
        InvocationResult r = slow.invoke("{}".getBytes(StandardCharsets.UTF_8), "test");
        assertTrue(r.failed());
        JsonNode error = Json.MAPPER.readTree(r.payload());
        assertEquals("Sandbox.Timedout", error.get("errorType").asText());
        assertTrue(error.get("errorMessage").asText().contains("Task timed out after 2.00 seconds"), error.toString());
        InvocationResult fast = slow.invoke("{\"fast\":true}".getBytes(StandardCharsets.UTF_8), "test");
        assertFalse(fast.failed(), fast.payloadText());
        assertEquals("\"done\"", fast.payloadText());
    }

    @Test
    void theScheduledEventIsReadByTheRuntimesScheduledEventType() throws Exception {
        String arn = ScheduledEvents.ruleArn("us-east-1", "000000000000", "ScheduleFunction", "Daily");
        InvocationResult r = functions.get("ScheduleFunction").invoke(
                Json.bytes(ScheduledEvents.event(arn, "000000000000", "us-east-1", Instant.now())), "test");
        assertFalse(r.failed(), r.payloadText());
        assertEquals("\"aws.events|Scheduled Event|[" + arn + "]|true\"", r.payloadText());
    }
}
