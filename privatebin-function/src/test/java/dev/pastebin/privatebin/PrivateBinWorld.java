package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * A test class's own upload queue and bucket in LocalStack and the PrivateBin function's context against the real
 * database: pastes are created through {@code POST /pb/} and stored the way the upload worker stores them (the
 * queued job's bytes put in S3, then the guarded markProcessed).
 */
final class PrivateBinWorld implements AutoCloseable {

    final String bucket = "pb-it-" + UUID.randomUUID();
    final SqsClient sqs = SqsClient.create();
    final TestQueues.Pair queues;
    final HttpApi api;
    final S3Client s3;

    PrivateBinWorld(String name, Map<String, Object> extraProperties) {
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

    /** A POST of {@code body} to {@code /pb/}, with the Content-Type a client sends ({@code null}: none). */
    HttpApi.Response post(String body, @Nullable String contentType) {
        HttpApi.Request request =
                api.fixture("privatebin").method("POST").binaryBody(body.getBytes(StandardCharsets.UTF_8));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return api.send(request);
    }

    /** A GET of {@code /pb/?<rawQuery>} as a client's JSON API call. */
    HttpApi.Response get(String rawQuery) {
        return api.send(query(api.fixture("privatebin"), rawQuery));
    }

    /** A GET of {@code /pb/?<rawQuery>} as a browser's (no JSON API header, Accept preferring HTML). */
    HttpApi.Response browse(String rawQuery) {
        return api.send(query(api.fixture("privatebin"), rawQuery)
                .withoutHeader("X-Requested-With")
                .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
    }

    /** The query as API Gateway passes it: raw, and parsed (a bare key has the empty value). */
    static HttpApi.Request query(HttpApi.Request request, String rawQuery) {
        request.event().setRawQueryString(rawQuery);
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (!pair.isEmpty()) {
                int equals = pair.indexOf('=');
                parsed.put(equals < 0 ? pair : pair.substring(0, equals), equals < 0 ? "" : pair.substring(equals + 1));
            }
        }
        request.event().setQueryStringParameters(parsed.isEmpty() ? null : parsed);
        return request;
    }

    /** Created: its {@code {"status":0,"id","url","deletetoken"}}. */
    Map<String, Object> create(String body) throws Exception {
        HttpApi.Response created = post(body, null);
        assertEquals(200, created.status(), created.text());
        Map<String, Object> answer = json(created);
        assertEquals(0, answer.get("status"), created.text());
        return answer;
    }

    /**
     * What the upload worker does with {@code shortCode}'s queued job; jobs of pastes a test left IN_PROGRESS on
     * purpose are taken off the queue on the way.
     */
    void store(String shortCode) throws Exception {
        for (int receives = 0; receives < 20; receives++) {
            List<Message> messages = sqs.receiveMessage(b ->
                            b.queueUrl(queues.queueUrl()).waitTimeSeconds(5).maxNumberOfMessages(1))
                    .messages();
            for (Message message : messages) {
                sqs.deleteMessage(b -> b.queueUrl(queues.queueUrl()).receiptHandle(message.receiptHandle()));
                UploadJob job = api.context().getBean(UploadJobCodec.class).decode(message.body());
                if (job.shortCode().equals(shortCode)) {
                    ContentLocation location = api.context()
                            .getBean(PasteContentStore.class)
                            .put(job.shortCode(), job.content(), job.contentSha256());
                    assertEquals(
                            1, api.context().getBean(PasteRepository.class).markProcessed(shortCode, location.uri()));
                    return;
                }
            }
        }
        throw new AssertionError("no upload job for " + shortCode);
    }

    /** The message group of {@code shortCode}'s queued job, taken off the queue (with any other job on the way). */
    String groupOfJob(String shortCode) throws Exception {
        for (int receives = 0; receives < 20; receives++) {
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queues.queueUrl())
                            .waitTimeSeconds(5)
                            .maxNumberOfMessages(10)
                            .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                    .messages();
            for (Message message : messages) {
                sqs.deleteMessage(b -> b.queueUrl(queues.queueUrl()).receiptHandle(message.receiptHandle()));
                if (api.context()
                        .getBean(UploadJobCodec.class)
                        .decode(message.body())
                        .shortCode()
                        .equals(shortCode)) {
                    return message.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
                }
            }
        }
        throw new AssertionError("no upload job for " + shortCode);
    }

    /** Created and stored; its id. */
    String stored(String body) throws Exception {
        String id = (String) create(body).get("id");
        store(id);
        return id;
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
