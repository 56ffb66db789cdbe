package dev.pastebin.benchmarks.baseline;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

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
        this.s3 = new Lazy<>(
                () -> S3Client.builder().forcePathStyle(config.s3PathStyle()).build());
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
        try (var st = connection().createStatement();
                var rs = st.executeQuery("SELECT 1")) {
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
        if (config.primeSuccessPath()) {
            primeSuccessPaths(needsSqs, needsS3);
        }
    }

    /**
     * As deep as the project's primers: a SendMessage SQS refuses (empty body), a GetObject whose answer is
     * replaced in-process by an empty object's, and the runtime's own event serializers.
     */
    private void primeSuccessPaths(boolean needsSqs, boolean needsS3) {
        if (needsSqs) {
            try {
                sqs().sendMessage(b -> b.queueUrl(config.queueUrl()).messageBody(""));
                throw new IllegalStateException("SQS accepted an empty message");
            } catch (software.amazon.awssdk.services.sqs.model.SqsException refused) {
                // 400: nothing stored
            }
        }
        if (needsS3) {
            SdkPlugin emptyObject = c -> c.overrideConfiguration(c.overrideConfiguration().toBuilder()
                    .addExecutionInterceptor(new ExecutionInterceptor() {
                        @Override
                        public SdkHttpResponse modifyHttpResponse(
                                Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
                            return SdkHttpResponse.builder()
                                    .statusCode(200)
                                    .putHeader("Content-Length", "0")
                                    .putHeader("ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"")
                                    .putHeader("Last-Modified", "Mon, 23 Nov 2026 00:00:00 GMT")
                                    .build();
                        }

                        @Override
                        public Optional<InputStream> modifyHttpResponseContent(
                                Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
                            return Optional.of(InputStream.nullInputStream());
                        }
                    })
                    .build());
            s3().getObjectAsBytes(b -> b.bucket(config.bucket())
                    .key(config.keyPrefix() + "priming-no-such-paste")
                    .overrideConfiguration(o -> o.addPlugin(emptyObject)));
        }
        var event = new APIGatewayV2HTTPEvent();
        event.setRawPath("/pastes");
        event.setHeaders(Map.of("content-type", "text/plain"));
        var response = APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withHeaders(Map.of("etag", "\"x\""))
                .withBody("e30=")
                .withIsBase64Encoded(true)
                .build();
        var events = JacksonFactory.getInstance().getSerializer((Type) APIGatewayV2HTTPEvent.class);
        var out = new ByteArrayOutputStream();
        events.toJson(event, out);
        events.fromJson(out.toString(StandardCharsets.UTF_8));
        JacksonFactory.getInstance()
                .getSerializer((Type) APIGatewayV2HTTPResponse.class)
                .toJson(response, new ByteArrayOutputStream());
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
