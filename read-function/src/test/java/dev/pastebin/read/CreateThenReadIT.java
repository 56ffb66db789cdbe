package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.RealServices;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A paste's whole life through both handlers: POST (create function), GET while IN_PROGRESS, then the upload
 * worker's two outcomes played from the real queued job (object + markProcessed, or markFailed), then GET.
 */
@RealServices
class CreateThenReadIT {

    /** Lambda's limit of a synchronous invocation's response payload ("Response payload size exceeded maximum allowed payload size (6291556 bytes)"). */
    private static final int LAMBDA_RESPONSE_PAYLOAD_LIMIT = 6_291_556;

    @RegisterExtension
    static final ReadWorld world = new ReadWorld("create-read-it").withUploadQueue();

    private static UploadJob create(byte[] content) throws Exception {
        HttpApi.Response created =
                world.api.send(world.api.fixture("create-paste-text").binaryBody(content));
        assertEquals(201, created.status(), created.text());
        List<Message> messages = world.sqs
                .receiveMessage(b ->
                        b.queueUrl(world.queues.queueUrl()).waitTimeSeconds(5).maxNumberOfMessages(1))
                .messages();
        assertEquals(1, messages.size());
        world.sqs.deleteMessage(b -> b.queueUrl(world.queues.queueUrl())
                .receiptHandle(messages.get(0).receiptHandle()));
        UploadJob job = world.api
                .context()
                .getBean(UploadJobCodec.class)
                .decode(messages.get(0).body());
        String shortCode = (String) world.json(created).get("shortCode");
        assertEquals(shortCode, job.shortCode());
        return job;
    }

    private static HttpApi.Response read(String shortCode) {
        return world.api.send(world.api.fixture("read-paste").path("/pastes/" + shortCode));
    }

    @Test
    void createdThenStoredThenRead() throws Exception {
        byte[] content = "Grüße, 世界 🌍\r\n\tline two\r\n".getBytes(StandardCharsets.UTF_8);
        UploadJob job = create(content);

        assertEquals(202, read(job.shortCode()).status());

        // what the upload worker does with the job it received
        StorageProperties storage = world.api.context().getBean(StorageProperties.class);
        world.s3.putObject(
                b -> b.bucket(world.bucket).key(storage.objectKey(job.shortCode())),
                RequestBody.fromBytes(job.content()));
        assertEquals(
                1,
                world.api
                        .context()
                        .getBean(PasteRepository.class)
                        .markProcessed(
                                job.shortCode(),
                                world.api
                                        .context()
                                        .getBean(PasteContentStore.class)
                                        .locationOf(job.shortCode())
                                        .uri()));

        HttpApi.Response response = read(job.shortCode());
        assertEquals(200, response.status(), response.text());
        assertArrayEquals(content, response.body());
        assertEquals("\"" + job.contentSha256() + "\"", response.header("ETag"));
    }

    /**
     * The web page reads a paste as JSON, where a control character is escaped to six bytes, and Lambda's answer
     * escapes that string again (seven): the largest paste of nothing but control characters still fits the 6 MB
     * response payload Lambda allows a synchronous invoke (docs/design.md, "Paste size").
     */
    @Test
    void theLargestWorstCasePasteReadAsJsonFitsLambdasResponsePayload() throws Exception {
        byte[] content = new byte[PasteProperties.MAX_CONTENT_BYTES_CAP];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i % 32);
        }
        UploadJob job = create(content);
        StorageProperties storage = world.api.context().getBean(StorageProperties.class);
        world.s3.putObject(
                b -> b.bucket(world.bucket).key(storage.objectKey(job.shortCode())),
                RequestBody.fromBytes(job.content()));
        world.api
                .context()
                .getBean(PasteRepository.class)
                .markProcessed(
                        job.shortCode(),
                        world.api
                                .context()
                                .getBean(PasteContentStore.class)
                                .locationOf(job.shortCode())
                                .uri());

        HttpApi.Request asTheWebPageReads = world.api
                .fixture("read-paste")
                .path("/pastes/" + job.shortCode())
                .header("Accept", "application/json");
        HttpApi.Response response = world.api.send(asTheWebPageReads);
        assertEquals(200, response.status(), response.text());
        assertArrayEquals(content, ((String) world.json(response).get("content")).getBytes(StandardCharsets.UTF_8));

        int payload = world.api.responsePayload(asTheWebPageReads).length;
        assertTrue(payload <= LAMBDA_RESPONSE_PAYLOAD_LIMIT, "a response payload of " + payload + " bytes");
    }

    @Test
    void createdThenFailedIsNotFound() throws Exception {
        UploadJob job = create("doomed".getBytes(StandardCharsets.UTF_8));
        assertEquals(202, read(job.shortCode()).status());

        world.api.context().getBean(PasteRepository.class).markFailed(job.shortCode(), "exhausted");

        HttpApi.Response response = read(job.shortCode());
        assertEquals(404, response.status());
        assertEquals("PASTE_NOT_FOUND", world.json(response).get("code"));
    }
}
