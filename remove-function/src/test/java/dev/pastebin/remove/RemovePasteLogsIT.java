package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.DatabaseLoginSecret;
import dev.pastebin.core.support.EveryLoggerAt;
import dev.pastebin.core.support.JsonLogLines;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * What the remove function logs, as JSON lines: each names its invocation and function, and the lines of a
 * request about a paste its short code; a delete and a reveal each log what they removed, a refused request
 * its method, path, status and error code. Neither the content, nor a deletion token (the right one or a
 * wrong one, received in a header), nor the database password (from a secret) appears anywhere, from the cold
 * start on, and not even with every logger at TRACE, as an operator chasing a problem might set them.
 */
@RealServices
class RemovePasteLogsIT {

    @Test
    void everyLineNamesItsInvocationAndNoneQuotesContentTokenOrPassword() throws Exception {
        String marker = "content-marker-" + UUID.randomUUID();
        String wrongToken = "wrong-token-" + UUID.randomUUID();
        try (DatabaseLoginSecret secret = DatabaseLoginSecret.create();
                JsonLogLines everything = JsonLogLines.all()) {
            var deleted = TestLambdaContext.withPlentyOfTime();
            var refused = TestLambdaContext.withPlentyOfTime();
            var withoutToken = TestLambdaContext.withPlentyOfTime();
            var revealed = TestLambdaContext.withPlentyOfTime();
            List<ObjectNode> lines;
            String deletedCode;
            String deleteToken;
            String revealedCode;
            String revealToken;
            try (RemoveWorld world = new RemoveWorld("remove-logs-it", secret.properties())) {
                Map<String, Object> toDelete = world.create("{\"content\":\"to delete " + marker + "\"}");
                deletedCode = (String) toDelete.get("shortCode");
                deleteToken = (String) toDelete.get("deleteToken");
                world.store(deletedCode);
                Map<String, Object> toReveal =
                        world.create("{\"content\":\"to reveal " + marker + "\",\"readOnce\":true}");
                revealedCode = (String) toReveal.get("shortCode");
                revealToken = (String) toReveal.get("deleteToken");
                world.store(revealedCode);

                try (JsonLogLines invocations = JsonLogLines.all()) {
                    assertEquals(
                            404,
                            world.api
                                    .send(world.delete(deletedCode, wrongToken), refused)
                                    .status());
                    assertEquals(
                            401,
                            world.api
                                    .send(world.delete(deletedCode, null), withoutToken)
                                    .status());
                    assertEquals(
                            204,
                            world.api
                                    .send(world.delete(deletedCode, deleteToken), deleted)
                                    .status());
                    HttpApi.Response reveal = world.api.send(world.reveal(revealedCode), revealed);
                    assertEquals(200, reveal.status(), reveal.text());
                    assertTrue(
                            MDC.getCopyOfContextMap() == null
                                    || MDC.getCopyOfContextMap().isEmpty(),
                            "the MDC is cleared after each invocation: " + MDC.getCopyOfContextMap());

                    lines = invocations.assertEachNamesItsInvocation(
                            List.of(
                                    deleted.getAwsRequestId(),
                                    refused.getAwsRequestId(),
                                    withoutToken.getAwsRequestId(),
                                    revealed.getAwsRequestId()),
                            deleted.getFunctionName());
                }
            }

            everything.assertNowhere(marker, deleteToken, revealToken, wrongToken, secret.password());
            assertOneLineFor(lines, deleted.getAwsRequestId(), deletedCode, "deleted by its owner");
            assertOneLineFor(lines, revealed.getAwsRequestId(), revealedCode, "revealed and removed");
            assertOneLineFor(
                    lines,
                    refused.getAwsRequestId(),
                    deletedCode,
                    "DELETE /pastes/" + deletedCode + " answered 404 PASTE_NOT_FOUND requestId=");
            assertOneLineFor(
                    lines,
                    withoutToken.getAwsRequestId(),
                    deletedCode,
                    "DELETE /pastes/" + deletedCode + " answered 401 DELETE_TOKEN_REQUIRED requestId=");
        }
    }

    /** A debugging session must not turn the logs into a list of deletion tokens. */
    @Test
    void noDeletionTokenIsLoggedEvenWithEveryLoggerAtTrace() throws Exception {
        String wrongToken = "wrong-token-" + UUID.randomUUID();
        try (RemoveWorld world = new RemoveWorld("remove-trace-it", Map.of())) {
            Map<String, Object> created = world.create("{\"content\":\"traced\"}");
            String code = (String) created.get("shortCode");
            String token = (String) created.get("deleteToken");
            world.store(code);

            List<String> lines;
            try (JsonLogLines traced = JsonLogLines.all();
                    var trace = EveryLoggerAt.trace()) {
                assertEquals(404, world.api.send(world.delete(code, wrongToken)).status());
                assertEquals(204, world.api.send(world.delete(code, token)).status());
                lines = traced.lines();
                traced.assertNowhere(token, wrongToken);
            }
            assertTrue(
                    lines.stream().anyMatch(l -> l.contains("\"TRACE\"")),
                    "the loggers really were at TRACE: " + lines.size() + " lines");
        }
    }

    private static void assertOneLineFor(List<ObjectNode> lines, String requestId, String shortCode, String message) {
        List<ObjectNode> about = lines.stream()
                .filter(l -> requestId.equals(l.path("requestId").asText()))
                .toList();
        assertEquals(1, about.size(), "one line per request: " + about);
        assertEquals(shortCode, about.get(0).path("shortCode").asText(), about.toString());
        assertTrue(about.get(0).path("message").asText().contains(message), message + ": " + about);
    }
}
