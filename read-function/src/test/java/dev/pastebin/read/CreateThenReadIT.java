package dev.pastebin.read;

import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A paste's whole life through both handlers: POST (create function), GET while IN_PROGRESS, then the upload
 * worker's two outcomes played from the real queued job (object + markProcessed, or markFailed), then GET.
 */
@RealServices
class CreateThenReadIT {

    private static final String BUCKET = "create-read-it-" + UUID.randomUUID();
    private static HttpApi api;
    private static SqsClient sqs;
    private static S3Client s3;
    private static TestQueues.Pair queues;

    @BeforeAll
    static void start() {
        sqs = SqsClient.create();
        queues = TestQueues.create(sqs, "create-read-it", 10, 30);
        api = HttpApi.start(Map.of("pastebin.upload-queue.url", queues.queueUrl(),
                "pastebin.storage.bucket", BUCKET, "aws.s3.path-style-access-enabled", true));
        s3 = api.context().getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(BUCKET).key(o.key())));
            s3.deleteBucket(b -> b.bucket(BUCKET));
        }
        if (api != null) {
            api.close();
        }
        if (queues != null) {
            TestQueues.delete(sqs, queues);
        }
        sqs.close();
    }

    private static UploadJob create(byte[] content) throws Exception {
        HttpApi.Response created = api.send(api.fixture("create-paste-text").binaryBody(content));
        assertEquals(201, created.status(), created.text());
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queues.queueUrl()).waitTimeSeconds(5).maxNumberOfMessages(1)).messages();
        assertEquals(1, messages.size());
        sqs.deleteMessage(b -> b.queueUrl(queues.queueUrl()).receiptHandle(messages.get(0).receiptHandle()));
        UploadJob job = api.context().getBean(UploadJobCodec.class).decode(messages.get(0).body());
        String shortCode = (String) api.context().getBean(JsonMapper.class)
                .readValue(created.body(), Argument.mapOf(String.class, Object.class)).get("shortCode");
        assertEquals(shortCode, job.shortCode());
        return job;
    }

    private static HttpApi.Response read(String shortCode) {
        return api.send(api.fixture("read-paste").path("/pastes/" + shortCode));
    }

    @Test
    void createdThenStoredThenRead() throws Exception {
        byte[] content = "Grüße, 世界 🌍\r\n\tline two\r\n".getBytes(StandardCharsets.UTF_8);
        UploadJob job = create(content);

        assertEquals(202, read(job.shortCode()).status());

        // what the upload worker does with the job it received
        StorageProperties storage = api.context().getBean(StorageProperties.class);
        s3.putObject(b -> b.bucket(BUCKET).key(storage.objectKey(job.shortCode())), RequestBody.fromBytes(job.content()));
        assertEquals(1, api.context().getBean(PasteRepository.class).markProcessed(job.shortCode(), api.context().getBean(PasteContentStore.class).locationOf(job.shortCode()).uri()));

        HttpApi.Response response = read(job.shortCode());
        assertEquals(200, response.status(), response.text());
        assertArrayEquals(content, response.body());
        assertEquals("\"" + job.contentSha256() + "\"", response.header("ETag"));
    }

    @Test
    void createdThenFailedIsNotFound() throws Exception {
        UploadJob job = create("doomed".getBytes(StandardCharsets.UTF_8));
        assertEquals(202, read(job.shortCode()).status());

        api.context().getBean(PasteRepository.class).markFailed(job.shortCode(), "exhausted");

        HttpApi.Response response = read(job.shortCode());
        assertEquals(404, response.status());
        assertEquals("PASTE_NOT_FOUND", api.context().getBean(JsonMapper.class)
                .readValue(response.body(), Argument.mapOf(String.class, Object.class)).get("code"));
    }
}
