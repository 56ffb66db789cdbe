package dev.pastebin.upload;

import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.StagedFileNotifications;
import dev.pastebin.core.support.TestLambdaContext;
import dev.pastebin.core.support.TestPastes;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.faults.FaultProxy;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Everything one upload integration test needs, fresh: a bucket, a queue with its dead-letter queue, a
 * fault proxy in front of LocalStack's S3, and the upload function's own application context pointed at
 * them by configuration. The test talks to LocalStack directly (its own clients, not through the proxy).
 */
final class UploadWorld implements AutoCloseable {

    static final URI LOCALSTACK =
            URI.create(Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("http://127.0.0.1:4566"));

    /** Direct clients: region, credentials and endpoint from the environment Failsafe sets. */
    static final S3Client S3 = S3Client.builder().forcePathStyle(true).build();

    static final SqsClient SQS = SqsClient.builder().build();

    final FaultProxy proxy;
    final String bucket;
    final TestQueues.Pair queues;
    final ApplicationContext context;
    final UploadHandler handler;
    final PasteRepository repository;
    final UploadJobCodec codec;
    final ShortCodes shortCodes;
    final DeliveryLines deliveries;
    final LambdaQueue mapping;

    /**
     * @param maxReceiveCount   the queue's redrive maxReceiveCount (also told to the function)
     * @param visibilitySeconds the queue's default visibility timeout
     * @param overrides         the function's configuration for this test (compressed schedule, ...)
     */
    static UploadWorld start(
            int maxReceiveCount,
            int visibilitySeconds,
            Map<String, Object> overrides,
            Supplier<com.amazonaws.services.lambda.runtime.Context> lambdaContext)
            throws IOException {
        return new UploadWorld(maxReceiveCount, visibilitySeconds, overrides, lambdaContext);
    }

    static UploadWorld start(int maxReceiveCount, int visibilitySeconds, Map<String, Object> overrides)
            throws IOException {
        // A generous invocation: the remaining-time guard never triggers unless a test asks for it.
        return start(
                maxReceiveCount,
                visibilitySeconds,
                overrides,
                () -> TestLambdaContext.withRemaining(Duration.ofMinutes(5)));
    }

    private UploadWorld(
            int maxReceiveCount,
            int visibilitySeconds,
            Map<String, Object> overrides,
            Supplier<com.amazonaws.services.lambda.runtime.Context> lambdaContext)
            throws IOException {
        proxy = new FaultProxy(LOCALSTACK);
        bucket = "upload-it-" + UUID.randomUUID().toString().substring(0, 8);
        S3.createBucket(b -> b.bucket(bucket));
        queues = TestQueues.create(SQS, "upload-it", maxReceiveCount, visibilitySeconds);
        Map<String, Object> properties = new HashMap<>();
        properties.put("pastebin.storage.bucket", bucket);
        properties.put("pastebin.upload-queue.url", queues.queueUrl());
        properties.put("pastebin.upload-dlq.url", queues.deadLetterQueueUrl());
        // S3 faults come through configuration: the function's S3 endpoint is the proxy.
        properties.put("aws.services.s3.endpoint-override", proxy.endpoint().toString());
        properties.put("pastebin.delivery.queue.max-receive-count", maxReceiveCount);
        properties.put("pastebin.upload.s3-attempt-timeout", "1s");
        properties.put("pastebin.upload.s3-call-timeout", "2s");
        properties.put("pastebin.upload.remaining-time-margin", "5s");
        // The retry schedule alone, unless a test turns the breaker on; then a breaker of its own.
        properties.put("pastebin.breaker.enabled", false);
        properties.put(
                "pastebin.breaker.name", "it-" + UUID.randomUUID().toString().substring(0, 8));
        properties.putAll(overrides);
        context = ApplicationContext.builder()
                .environments("test")
                .properties(properties)
                .start();
        handler = new UploadHandler(context);
        repository = context.getBean(PasteRepository.class);
        codec = context.getBean(UploadJobCodec.class);
        shortCodes = context.getBean(ShortCodes.class);
        deliveries = new DeliveryLines(context.getBean(ObjectMapper.class));
        mapping = new LambdaQueue(SQS, queues.queueUrl(), handler, lambdaContext);
    }

    static byte[] content(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** An IN_PROGRESS row for {@code content}, as the create function inserts it. */
    Paste newPaste(byte[] content) {
        return repository.save(
                TestPastes.inProgress(shortCodes.next(), "it-user", ContentHash.sha256Hex(content), content.length));
    }

    /**
     * Sends the upload job for a paste, as the create function does (in its client's message group, which the
     * event source passes on as the record's {@code MessageGroupId} attribute); returns the SQS message id.
     */
    String sendJob(Paste paste, byte[] content) {
        String body = codec.encode(new UploadJob(paste.shortCode(), paste.contentSha256(), content));
        return SQS.sendMessage(
                        b -> b.queueUrl(queues.queueUrl()).messageBody(body).messageGroupId(CLIENT_GROUP))
                .messageId();
    }

    /** A client's group as the create function names it (docs/design.md, "The upload queue's groups"). */
    static final String CLIENT_GROUP = "ip-e3f3184a20444189";

    String sendBody(String body) {
        return SQS.sendMessage(b -> b.queueUrl(queues.queueUrl()).messageBody(body))
                .messageId();
    }

    Paste row(String shortCode) {
        return repository.findById(shortCode).orElseThrow();
    }

    /** Runs one SQL update on the function's database (outside its connection management); the rows it changed. */
    int update(String sql, Object... parameters) {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Runs one SQL query on the function's database that answers one number (a count). */
    long number(String sql, Object... parameters) {
        DataSource dataSource = DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    Optional<ResponseBytes<GetObjectResponse>> object(String shortCode) {
        try {
            return Optional.of(S3.getObjectAsBytes(b -> b.bucket(bucket).key("pastes/" + shortCode)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /**
     * The bucket notifies the queue of every object created under staging/, as infra/local/bootstrap.py configures
     * the local bucket and the template the deployed one: a large paste's uploads reach the function.
     */
    void notifyOfStagedFiles() {
        StagedFileNotifications.toQueue(S3, SQS, bucket, queues.queueUrl());
    }

    /** Messages in the dead-letter queue, visible or not. */
    int deadLetterDepth() {
        return Integer.parseInt(SQS.getQueueAttributes(b -> b.queueUrl(queues.deadLetterQueueUrl())
                        .attributeNamesWithStrings("ApproximateNumberOfMessages"))
                .attributesAsStrings()
                .get("ApproximateNumberOfMessages"));
    }

    int objectCount() {
        return S3.listObjectsV2(b -> b.bucket(bucket)).keyCount();
    }

    @Override
    public void close() {
        deliveries.close();
        context.close();
        proxy.close();
        TestQueues.delete(SQS, queues);
        S3.listObjectsV2(b -> b.bucket(bucket))
                .contents()
                .forEach(o -> S3.deleteObject(b -> b.bucket(bucket).key(o.key())));
        S3.deleteBucket(b -> b.bucket(bucket));
    }
}
