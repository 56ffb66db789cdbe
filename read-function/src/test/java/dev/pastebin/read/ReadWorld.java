package dev.pastebin.read;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A read integration test class's world, registered as a JUnit extension
 * ({@code @RegisterExtension static final ReadWorld world = new ReadWorld("read-it")}): before the class, a
 * bucket of its own and the function's HTTP API reading from it (against the real database), with a queue pair
 * of its own for the create route when asked ({@link #withUploadQueue()}); after the class, all of it removed.
 */
final class ReadWorld implements BeforeAllCallback, AfterAllCallback {

    private final String name;
    final String bucket;
    private boolean withUploadQueue;
    HttpApi api;
    S3Client s3;
    SqsClient sqs;
    TestQueues.Pair queues;

    /** {@code name} prefixes the bucket (and the queues). */
    ReadWorld(String name) {
        this.name = name;
        this.bucket = name + "-" + UUID.randomUUID();
    }

    /** Also a queue pair the create route sends its jobs to. */
    ReadWorld withUploadQueue() {
        withUploadQueue = true;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Map<String, Object> properties =
                new HashMap<>(Map.of("pastebin.storage.bucket", bucket, "aws.s3.path-style-access-enabled", true));
        if (withUploadQueue) {
            sqs = SqsClient.create();
            queues = TestQueues.create(sqs, name, 10, 30);
            properties.put("pastebin.upload-queue.url", queues.queueUrl());
        }
        api = HttpApi.start(properties);
        s3 = api.context().getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(bucket));
    }

    Map<String, Object> json(HttpApi.Response response) throws IOException {
        return api.context()
                .getBean(JsonMapper.class)
                .readValue(response.body(), Argument.mapOf(String.class, Object.class));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (s3 != null) {
                s3.listObjectsV2Paginator(b -> b.bucket(bucket))
                        .contents()
                        .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
                s3.deleteBucket(b -> b.bucket(bucket));
            }
        } finally {
            if (api != null) {
                api.close();
            }
            if (queues != null) {
                TestQueues.delete(sqs, queues);
                sqs.close();
            }
        }
    }
}
