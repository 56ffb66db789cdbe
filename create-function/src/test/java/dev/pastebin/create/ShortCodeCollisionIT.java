package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Short codes that are already taken are drawn again on the primary-key violation, a bounded number of times. */
@RealServices
class ShortCodeCollisionIT {

    private static String takenCode() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    }

    @Test
    void aCollisionIsRetriedWithAFreshCode() throws Exception {
        String taken = takenCode();
        try (SqsClient sqs = SqsClient.create()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "create-collision-it", 10, 30);
            try (HttpApi api = HttpApi.start(Map.of(
                    "pastebin.upload-queue.url", queues.queueUrl(), "test.short-codes", List.of(taken, taken)))) {
                PasteRepository repository = api.context().getBean(PasteRepository.class);
                repository.save(TestPastes.inProgress(taken, null, ContentHash.sha256Hex(new byte[] {1}), 1));

                HttpApi.Response response = api.send(api.fixture("create-paste-text"));

                assertEquals(201, response.status(), response.text());
                String code = (String) api.context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class))
                        .get("shortCode");
                assertNotEquals(taken, code);
                assertEquals(1, repository.findById(taken).orElseThrow().sizeBytes(), "the taken row is untouched");
                assertEquals(1, Queues.drain(sqs, queues.queueUrl()).size());
            } finally {
                TestQueues.delete(sqs, queues);
            }
        }
    }

    @Test
    void endlessCollisionsGiveUpWith500AndEnqueueNothing() throws Exception {
        String taken = takenCode();
        try (SqsClient sqs = SqsClient.create()) {
            TestQueues.Pair queues = TestQueues.create(sqs, "create-collision-it", 10, 30);
            try (HttpApi api = HttpApi.start(Map.of(
                    "pastebin.upload-queue.url",
                    queues.queueUrl(),
                    "test.short-codes",
                    Collections.nCopies(CreatePasteService.MAX_INSERT_ATTEMPTS, taken)))) {
                api.context()
                        .getBean(PasteRepository.class)
                        .save(TestPastes.inProgress(taken, null, ContentHash.sha256Hex(new byte[] {1}), 1));

                HttpApi.Response response =
                        api.send(api.fixture("create-paste-text").requestId("req-500"));

                assertEquals(500, response.status(), response.text());
                Map<String, Object> error = api.context()
                        .getBean(JsonMapper.class)
                        .readValue(response.body(), Argument.mapOf(String.class, Object.class));
                assertEquals(
                        Map.of("code", "INTERNAL_ERROR", "message", "Internal error", "requestId", "req-500"), error);
                assertTrue(Queues.drain(sqs, queues.queueUrl()).isEmpty());
            } finally {
                TestQueues.delete(sqs, queues);
            }
        }
    }
}
