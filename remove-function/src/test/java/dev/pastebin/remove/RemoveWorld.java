package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A test's own queue and bucket, and one application context with the create and the remove function's
 * controllers: pastes are created through POST /pastes with real deletion tokens, and stored the way the upload
 * worker stores them (the queued job's bytes put in S3, then the guarded markProcessed).
 */
final class RemoveWorld implements AutoCloseable {

    final String bucket = "remove-it-" + UUID.randomUUID();
    final SqsClient sqs = SqsClient.create();
    final TestQueues.Pair queues;
    final HttpApi api;
    final S3Client s3;

    RemoveWorld(String name, Map<String, Object> extraProperties) {
        queues = TestQueues.create(sqs, name, 10, 30);
        Map<String, Object> properties = new HashMap<>(Map.of(
                "pastebin.upload-queue.url",
                queues.queueUrl(),
                "pastebin.storage.bucket",
                bucket,
                "aws.s3.path-style-access-enabled",
                true));
        properties.putAll(extraProperties);
        api = HttpApi.start(properties);
        s3 = api.context().getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(bucket));
    }

    RemoveWorld(String name) {
        this(name, Map.of());
    }

    /** A paste created through POST /pastes with a JSON body; its 201 body. */
    Map<String, Object> create(String jsonBody) throws Exception {
        HttpApi.Response created = api.send(api.fixture("create-paste-json").textBody(jsonBody));
        assertEquals(201, created.status(), created.text());
        return json(created);
    }

    /** What the upload worker does with the paste's queued job. */
    void store(String shortCode) throws Exception {
        List<Message> messages = sqs.receiveMessage(
                        b -> b.queueUrl(queues.queueUrl()).waitTimeSeconds(5).maxNumberOfMessages(1))
                .messages();
        assertEquals(1, messages.size(), "the paste's job");
        sqs.deleteMessage(
                b -> b.queueUrl(queues.queueUrl()).receiptHandle(messages.get(0).receiptHandle()));
        UploadJob job = api.context()
                .getBean(UploadJobCodec.class)
                .decode(messages.get(0).body());
        assertEquals(shortCode, job.shortCode());
        ContentLocation location =
                api.context().getBean(PasteContentStore.class).put(job.shortCode(), job.content(), job.contentSha256());
        assertEquals(1, api.context().getBean(PasteRepository.class).markProcessed(shortCode, location.uri()));
    }

    Optional<Paste> row(String shortCode) {
        return api.context().getBean(PasteRepository.class).findById(shortCode);
    }

    boolean objectExists(String shortCode) {
        try {
            s3.headObject(b -> b.bucket(bucket).key("pastes/" + shortCode));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    HttpApi.Request delete(String shortCode, String token) {
        HttpApi.Request request =
                api.fixture("read-paste").path("/pastes/" + shortCode).method("DELETE");
        return token == null ? request : request.header("Paste-Delete-Token", token);
    }

    HttpApi.Request reveal(String shortCode) {
        return api.fixture("read-paste")
                .path("/pastes/" + shortCode + "/reveal")
                .method("POST");
    }

    Map<String, Object> json(HttpApi.Response response) throws Exception {
        return api.context()
                .getBean(JsonMapper.class)
                .readValue(response.body(), Argument.mapOf(String.class, Object.class));
    }

    @Override
    public void close() {
        s3.listObjectsV2Paginator(b -> b.bucket(bucket))
                .contents()
                .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
        s3.deleteBucket(b -> b.bucket(bucket));
        api.close();
        TestQueues.delete(sqs, queues);
        sqs.close();
    }
}
