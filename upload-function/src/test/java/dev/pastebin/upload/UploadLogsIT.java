package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.support.DatabaseLoginSecret;
import dev.pastebin.core.support.JsonLogLines;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestLambdaContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * What the upload worker logs, as JSON lines, for a batch worked on virtual threads: each line names its
 * invocation and function, the lines about a message its id and, once decoded, its paste; the delivery fields
 * are top-level. Neither the content (nor the job's base64 of it, nor a malformed body) nor the database
 * password (from a secret) appears anywhere, from the cold start on.
 */
@RealServices
class UploadLogsIT {

    @Test
    void everyLineNamesItsInvocationAndNoneQuotesContentOrPassword() throws Exception {
        String marker = "content-marker-" + UUID.randomUUID();
        byte[] content = UploadWorld.content("a paste " + marker);
        Set<String> requestIds = ConcurrentHashMap.newKeySet();
        try (DatabaseLoginSecret secret = DatabaseLoginSecret.create();
                JsonLogLines everything = JsonLogLines.all()) {
            List<ObjectNode> lines;
            String pasteMessage;
            String poisonMessage;
            Paste paste;
            try (UploadWorld world = UploadWorld.start(10, 30, secret.properties(), () -> {
                        Context context = TestLambdaContext.withRemaining(Duration.ofMinutes(5));
                        requestIds.add(context.getAwsRequestId());
                        return context;
                    });
                    JsonLogLines invocations = JsonLogLines.all()) {
                paste = world.newPaste(content);
                pasteMessage = world.sendJob(paste, content);
                poisonMessage = world.sendBody("{\"v\":1,\"content\":\"" + marker);

                // one batch of both, worked on concurrently (the poison message is redelivered later: not waited for)
                List<Message> batch = new ArrayList<>();
                Instant deadline = Instant.now().plusSeconds(30);
                while (batch.size() < 2) {
                    assertTrue(Instant.now().isBefore(deadline), "both messages received within 30 s: " + batch);
                    batch.addAll(world.mapping.receive(10, 1));
                }
                world.mapping.invoke(batch);

                lines = invocations.assertEachNamesItsInvocation(
                        requestIds, TestLambdaContext.withPlentyOfTime().getFunctionName());
            }

            everything.assertNowhere(marker, Base64.getEncoder().encodeToString(content), secret.password());
            ObjectNode success = lines.stream()
                    .filter(l -> pasteMessage.equals(l.path("messageId").asText())
                            && "success".equals(l.path("outcome").asText()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(lines.toString()));
            assertEquals(paste.shortCode(), success.path("shortCode").asText());
            assertEquals(1, success.path("delivery").asInt());
            assertTrue(success.path("latencyMs").isNumber(), success.toString());
            assertEquals("pastebin.upload.deliveries", success.path("logger").asText());
            ObjectNode poison = lines.stream()
                    .filter(l -> poisonMessage.equals(l.path("messageId").asText())
                            && "poison".equals(l.path("outcome").asText()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(lines.toString()));
            assertFalse(poison.has("shortCode"), "a body that is no job names no paste: " + poison);
            assertEquals("WARN", poison.path("level").asText());
        }
    }
}
