package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.TestSupport;
import dev.pastebin.local.cli.LocalRuntime;
import dev.pastebin.local.schedule.ScheduledEvents;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Lambda execution machinery on its own: real function JVMs started with the runtime interface client
 * against the in-process Runtime API, running the test-only handlers of the fixture template.
 */
class FunctionProcessIT {

    private static LocalRuntime functions;

    @BeforeAll
    static void start() {
        functions = LocalRuntime.create(TestSupport.settings(Map.of(), List.of()), System.err);
    }

    @AfterAll
    static void stop() {
        functions.close();
    }

    /** A payload 2.0 event as the local HTTP API builds it (the http package's tests check its shape). */
    private static byte[] apiEvent(String method, String path) {
        var event = Json.object()
                .put("version", "2.0")
                .put("routeKey", method + " /things/{id}")
                .put("rawPath", path)
                .put("rawQueryString", "a=1&a=2")
                .put("body", "aGk=")
                .put("isBase64Encoded", true);
        event.putArray("cookies").add("c1=v1").add("c2=v2");
        event.putObject("headers").put("x-multi", "1,2");
        event.putObject("queryStringParameters").put("a", "1,2");
        event.putObject("pathParameters").put("id", "abc");
        var context = event.putObject("requestContext").put("stage", "$default").put("requestId", "req-1");
        context.putObject("http").put("method", method).put("path", path);
        return Json.bytes(event);
    }

    /** An HTTP event for ApiHandler's /large path, answering a body of {@code responseBytes}, padded to {@code eventBytes}. */
    private static byte[] largeEvent(int responseBytes, int eventBytes) {
        var event = Json.object()
                .put("version", "2.0")
                .put("routeKey", "GET /things/{id}/large")
                .put("rawPath", "/things/abc/large")
                .put("rawQueryString", "bytes=" + responseBytes)
                .put("isBase64Encoded", false);
        event.putObject("queryStringParameters").put("bytes", Integer.toString(responseBytes));
        event.putObject("requestContext")
                .put("stage", "$default")
                .put("requestId", "req-large")
                .putObject("http")
                .put("method", "GET")
                .put("path", "/things/abc/large");
        int unpadded = Json.bytes(event.put("body", "")).length;
        return Json.bytes(event.put("body", "p".repeat(Math.max(0, eventBytes - unpadded))));
    }

    /**
     * Lambda's payload limits for a synchronous invoke: an event above 6,291,456 bytes is refused before the
     * function runs, a response above 6,291,556 bytes fails the invocation; the environment serves on.
     */
    @Test
    void anEventOrAResponseOverLambdasPayloadLimitsFailsTheInvocation() throws Exception {
        LocalFunction api = functions.function("ApiFunction");
        byte[] largestEvent = largeEvent(10, 6_291_456);
        assertEquals(6_291_456, largestEvent.length);
        InvocationResult fits = api.invoke(largestEvent, "test");
        assertFalse(fits.failed(), fits.payloadText());

        InvocationResult tooLargeEvent = api.invoke(largeEvent(10, 6_291_457), "test");
        assertTrue(tooLargeEvent.failed());
        assertEquals("RequestEntityTooLargeException", tooLargeEvent.errorType(), tooLargeEvent.payloadText());

        InvocationResult largeResponse = api.invoke(largeEvent(6_291_000, 0), "test");
        assertFalse(largeResponse.failed(), largeResponse.errorType());
        InvocationResult tooLargeResponse = api.invoke(largeEvent(6_291_556, 0), "test");
        assertTrue(tooLargeResponse.failed());
        assertEquals("Function.ResponseSizeTooLarge", tooLargeResponse.errorType(), tooLargeResponse.payloadText());

        InvocationResult after = api.invoke(apiEvent("GET", "/things/abc"), "test");
        assertFalse(after.failed(), after.payloadText());
    }

    @Test
    void httpEventIsDeserialisedByLambdasJavaRuntimeAndTheResponseComesBack() throws Exception {
        InvocationResult r = functions.function("ApiFunction").invoke(apiEvent("GET", "/things/abc"), "test");
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
        LocalFunction api = functions.function("ApiFunction");
        InvocationResult failed = api.invoke(apiEvent("GET", "/things/x/fail"), "test");
        assertTrue(failed.failed());
        JsonNode error = Json.MAPPER.readTree(failed.payload());
        assertEquals("java.lang.IllegalStateException", error.get("errorType").asText());
        assertEquals(
                "failure requested by /things/x/fail", error.get("errorMessage").asText());
        assertTrue(error.get("stackTrace").isArray());
        InvocationResult next = api.invoke(apiEvent("GET", "/things/abc"), "test");
        assertFalse(next.failed(), next.payloadText());
        assertFalse(next.coldStart(), "the same process serves the next invocation");
    }

    @Test
    void aCrashedProcessFailsItsInvocationAndIsReplacedOnTheNext() throws Exception {
        LocalFunction api = functions.function("ApiFunction");
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
        LocalFunction broken = functions.function("BrokenFunction");
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
        LocalFunction slow = functions.function("SlowFunction");
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
    void aZipCodeUriIsUnpackedAMakefileBuildIsBuiltAndADirectoryIsUsedAsItIs() throws Exception {
        for (String id : new String[] {"ZipFunction", "MadeFunction", "PlainFunction"}) {
            InvocationResult r = functions.function(id).invoke("{}".getBytes(StandardCharsets.UTF_8), "test");
            assertFalse(r.failed(), id + ": " + r.payloadText());
            assertEquals("{\"hello\":\"world\"}", r.payloadText(), id);
        }
        assertTrue(functions.function("ZipFunction").configuration().taskRoot().endsWith("ZipFunction"));
        assertTrue(functions.function("MadeFunction").configuration().taskRoot().endsWith("MadeFunction"));
        assertTrue(
                functions.function("PlainFunction").configuration().taskRoot().endsWith("test-classes"));
    }

    @Test
    void theScheduledEventIsReadByTheRuntimesScheduledEventType() throws Exception {
        String arn = ScheduledEvents.ruleArn("us-east-1", "000000000000", "ScheduleFunction", "Daily");
        InvocationResult r = functions
                .function("ScheduleFunction")
                .invoke(Json.bytes(ScheduledEvents.event(arn, "000000000000", "us-east-1", Instant.now())), "test");
        assertFalse(r.failed(), r.payloadText());
        assertEquals("\"aws.events|Scheduled Event|[" + arn + "]|true\"", r.payloadText());
    }
}
