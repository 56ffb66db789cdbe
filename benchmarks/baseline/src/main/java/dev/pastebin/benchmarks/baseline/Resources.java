package dev.pastebin.benchmarks.baseline;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * One JDBC connection and the SDK clients, built in the handler's constructor (Lambda's Init phase, like
 * Micronaut's eager singletons) or on first use when {@code BASELINE_LAZY_INIT=true}. The SDK finds its
 * HTTP client through its own service loader, so the benchmark can swap URLConnection / Apache / CRT by
 * classpath alone; region and credentials come from the standard AWS_* variables, and AWS_ENDPOINT_URL is
 * honoured by the SDK itself.
 */
final class Resources {

    private final BaselineConfig config;
    private final Lazy<Connection> connection;
    private final Lazy<SqsClient> sqs;
    private final Lazy<S3Client> s3;

    Resources(BaselineConfig config, boolean needsSqs, boolean needsS3) {
        this.config = config;
        this.connection = new Lazy<>(this::connect);
        this.sqs = new Lazy<>(() -> SqsClient.builder().build());
        this.s3 = new Lazy<>(() -> S3Client.builder().forcePathStyle(config.s3PathStyle()).build());
        if (!config.lazyInit()) {
            connection.get();
            if (needsSqs) {
                sqs.get();
            }
            if (needsS3) {
                s3.get();
            }
        }
        if (config.prime()) {
            prime(needsSqs, needsS3);
        }
    }

    /** What the project's primers do: SELECT 1, GetQueueAttributes, HeadBucket (the handler adds a validation-only request). */
    private void prime(boolean needsSqs, boolean needsS3) {
        try (var st = connection().createStatement(); var rs = st.executeQuery("SELECT 1")) {
            rs.next();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        if (needsSqs) {
            sqs().getQueueAttributes(b -> b.queueUrl(config.queueUrl())
                    .attributeNames(software.amazon.awssdk.services.sqs.model.QueueAttributeName.QUEUE_ARN));
        }
        if (needsS3) {
            s3().headBucket(b -> b.bucket(config.bucket()));
        }
    }

    BaselineConfig config() {
        return config;
    }

    Connection connection() {
        return connection.get();
    }

    SqsClient sqs() {
        return sqs.get();
    }

    S3Client s3() {
        return s3.get();
    }

    private Connection connect() {
        try {
            Connection c = DriverManager.getConnection(config.jdbcUrl(), config.jdbcUser(), config.jdbcPassword());
            c.setAutoCommit(true);
            return c;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + config.jdbcUrl() + ": " + e.getMessage(), e);
        }
    }

    /** Single-threaded memo: one Lambda invocation at a time per JVM. */
    private static final class Lazy<T> {
        private final Supplier<T> factory;
        private T value;

        Lazy(Supplier<T> factory) {
            this.factory = factory;
        }

        T get() {
            if (value == null) {
                value = factory.get();
            }
            return value;
        }
    }
}
