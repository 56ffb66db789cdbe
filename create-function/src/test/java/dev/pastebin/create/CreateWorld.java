package dev.pastebin.create;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A create integration test class's world, registered as a JUnit extension
 * ({@code @RegisterExtension static final CreateWorld world = new CreateWorld("create-it")}): before the
 * class, a queue pair of its own and the create function's HTTP API sending to it (against the real database);
 * before each test, an empty queue (unless {@link #keepingJobsBetweenTests()}); after the class, both removed. Tests read back the response as JSON, the
 * row and the queued jobs.
 */
final class CreateWorld implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private final String name;
    private final Map<String, Object> extraProperties;
    private boolean drainBeforeEach = true;
    final SqsClient sqs = SqsClient.create();
    TestQueues.Pair queues;
    HttpApi api;

    /** {@code name} prefixes the queues; {@code extraProperties} are added to the function's configuration. */
    CreateWorld(String name, Map<String, Object> extraProperties) {
        this.name = name;
        this.extraProperties = extraProperties;
    }

    CreateWorld(String name) {
        this(name, Map.of());
    }

    /** For a class that checks, after all its tests, that none of them queued a job. */
    CreateWorld keepingJobsBetweenTests() {
        drainBeforeEach = false;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        queues = TestQueues.create(sqs, name, 10, 30);
        Map<String, Object> properties = new HashMap<>(extraProperties);
        properties.put("pastebin.upload-queue.url", queues.queueUrl());
        api = HttpApi.start(properties);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (drainBeforeEach) {
            drainQueue();
        }
    }

    /** The jobs the function queued since the last drain, received and deleted. */
    List<Message> drainQueue() {
        return Queues.drain(sqs, queues.queueUrl());
    }

    Map<String, Object> json(HttpApi.Response response) throws IOException {
        return api.context()
                .getBean(JsonMapper.class)
                .readValue(response.body(), Argument.mapOf(String.class, Object.class));
    }

    Paste row(String shortCode) {
        return api.context().getBean(PasteRepository.class).findById(shortCode).orElseThrow();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (api != null) {
                api.close();
            }
        } finally {
            if (queues != null) {
                TestQueues.delete(sqs, queues);
            }
            sqs.close();
        }
    }
}
