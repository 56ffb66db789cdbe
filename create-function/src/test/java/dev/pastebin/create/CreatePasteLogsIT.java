package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.DatabaseLoginSecret;
import dev.pastebin.core.support.EveryLoggerAt;
import dev.pastebin.core.support.JsonLogLines;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * What the create function logs, as JSON lines: each names its invocation and function, the lines about the
 * new paste its short code; neither the paste's content nor the database password (from a secret) appears
 * anywhere, from the cold start on.
 */
@RealServices
class CreatePasteLogsIT {

    @Test
    void everyLineNamesItsInvocationAndNoneQuotesContentOrPassword() throws Exception {
        String marker = "content-marker-" + UUID.randomUUID();
        try (SqsClient sqs = SqsClient.create();
                DatabaseLoginSecret secret = DatabaseLoginSecret.create();
                JsonLogLines everything = JsonLogLines.all()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "create-logs-it", 10, 30);
            Map<String, Object> properties = new HashMap<>(secret.properties());
            properties.put("pastebin.upload-queue.url", queues.queueUrl());
            var created = TestLambdaContext.withPlentyOfTime();
            var malformed = TestLambdaContext.withPlentyOfTime();
            List<ObjectNode> lines;
            String shortCode;
            try (HttpApi api = HttpApi.start(properties);
                    JsonLogLines invocations = JsonLogLines.all()) {
                HttpApi.Response response =
                        api.send(api.fixture("create-paste-text").textBody("a paste " + marker), created);
                assertEquals(201, response.status(), response.text());
                shortCode = (String) api.context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                        .get("shortCode");
                assertEquals(
                        400,
                        api.send(api.fixture("create-paste-json").textBody("{\"content\": \"" + marker), malformed)
                                .status());
                assertTrue(
                        MDC.getCopyOfContextMap() == null
                                || MDC.getCopyOfContextMap().isEmpty(),
                        "the MDC is cleared after each invocation: " + MDC.getCopyOfContextMap());

                lines = invocations.assertEachNamesItsInvocation(
                        Set.of(created.getAwsRequestId(), malformed.getAwsRequestId()), created.getFunctionName());
            } finally {
                TestQueues.delete(sqs, queues);
            }

            everything.assertNowhere(marker, secret.password());
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> l.path("message").asText().contains("created")
                                    && shortCode.equals(l.path("shortCode").asText())
                                    && created.getAwsRequestId()
                                            .equals(l.path("requestId").asText())),
                    "the created line: " + lines);
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> malformed
                                            .getAwsRequestId()
                                            .equals(l.path("requestId").asText())
                                    && l.path("message").asText().contains("400")),
                    "the rejected request's line: " + lines);
            assertFalse(
                    lines.stream()
                            .anyMatch(l -> malformed
                                            .getAwsRequestId()
                                            .equals(l.path("requestId").asText())
                                    && l.has("shortCode")),
                    "no paste, no short code: " + lines);
        }
    }

    /**
     * A create answers a deletion token (in the JSON body, or in {@code X-Token} to a form), and so does every
     * replay of an Idempotency-Key, each its own: none is logged, not even with every logger at TRACE.
     */
    @Test
    void noDeletionTokenIsLoggedEvenWithEveryLoggerAtTrace() throws Exception {
        try (SqsClient sqs = SqsClient.create()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "create-trace-it", 10, 30);
            try (HttpApi api = HttpApi.start(Map.of("pastebin.upload-queue.url", queues.queueUrl()))) {
                String key = UUID.randomUUID().toString();
                List<String> tokens = new ArrayList<>();
                List<String> lines;
                try (JsonLogLines traced = JsonLogLines.all();
                        var trace = EveryLoggerAt.trace()) {
                    for (int i = 0; i < 2; i++) {
                        HttpApi.Response response = api.send(api.fixture("create-paste-json")
                                .header("Idempotency-Key", key)
                                .textBody("{\"content\":\"traced\"}"));
                        assertEquals(201, response.status(), response.text());
                        tokens.add((String) api.context()
                                .getBean(JsonMapper.class)
                                .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                                .get("deleteToken"));
                    }
                    HttpApi.Response form = api.send(api.fixture("create-paste-text")
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .textBody("content=traced+form"));
                    assertEquals(200, form.status(), form.text()); // a form's URL line
                    tokens.add(form.header("X-Token"));
                    lines = traced.lines();
                    assertEquals(3, new HashSet<>(tokens).size(), "three tokens of their own: " + tokens);
                    traced.assertNowhere(tokens.toArray(String[]::new));
                }
                assertTrue(
                        lines.stream().anyMatch(l -> l.contains("\"TRACE\"")),
                        "the loggers really were at TRACE: " + lines.size() + " lines");
            } finally {
                TestQueues.delete(sqs, queues);
            }
        }
    }
}
