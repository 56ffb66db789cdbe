package dev.pastebin.benchmarks.herd;

import dev.pastebin.faults.FaultProxy;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The real local system, started by the README's run command ({@code infra/local/run.sh --no-build}) on the
 * running PostgreSQL and LocalStack, with a database, queues and bucket named after the run (created by the run
 * command's {@code up}; removed after a finished run), and the fault-proxy module's S3 proxy, in this JVM, in front of LocalStack's S3 (the functions' own
 * {@code AWS_ENDPOINT_URL_S3}). The upload function runs as the template says: its built artifact, under the
 * runtime's SQS event source mapping, as many environments as its MaximumConcurrency.
 */
final class HerdSystem implements AutoCloseable {

    private static final Pattern API_LISTENING = Pattern.compile("Local API listening on http://[^:]+:(\\d+)");
    private static final Pattern READY = Pattern.compile("Ready: \\d+ function\\(s\\) initialised");

    private final Path root;
    private final String runId;
    private String localStack;
    private boolean removeResources;
    private final Path logs;
    private FaultProxy proxy;
    private Process run;
    private URI api;

    private HerdSystem(Path root, String runId, Path logs) {
        this.root = root;
        this.runId = runId;
        this.logs = logs;
    }

    static HerdSystem start(Path root, String runId, Path logs, int apiPort, String localStack)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        HerdSystem system = new HerdSystem(root, runId, logs);
        try {
            system.startAll(apiPort, localStack);
            return system;
        } catch (IOException | InterruptedException | RuntimeException e) {
            system.close();
            throw e;
        }
    }

    String queue() {
        return "herd-" + runId + "-uploads";
    }

    String deadLetterQueue() {
        return "herd-" + runId + "-uploads-dlq";
    }

    String bucket() {
        return "herd-" + runId + "-pastes";
    }

    String database() {
        return "herd_" + runId;
    }

    private void startAll(int apiPort, String localStack) throws IOException, InterruptedException {
        this.localStack = localStack;
        proxy = new FaultProxy(URI.create(localStack));

        ProcessBuilder pb = new ProcessBuilder("infra/local/run.sh", "--no-build", "--port", Integer.toString(apiPort))
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(runtimeLog().toFile());
        // A shell set up for other queues keeps their URLs; the run's own names must win.
        pb.environment().keySet().removeAll(List.of("PASTEBIN_UPLOAD_QUEUE_URL", "PASTEBIN_UPLOAD_DLQ_URL"));
        pb.environment()
                .putAll(Map.of(
                        "PASTEBIN_DB_NAME", database(),
                        "PASTEBIN_UPLOAD_QUEUE", queue(),
                        "PASTEBIN_UPLOAD_DLQ", deadLetterQueue(),
                        "PASTEBIN_STORAGE_BUCKET", bucket(),
                        "AWS_ENDPOINT_URL_S3", proxy.endpoint().toString()));
        run = pb.start();
        api = URI.create("http://127.0.0.1:"
                + awaitLine(runtimeLog(), API_LISTENING, Duration.ofMinutes(5), run)
                        .group(1));
        awaitLine(runtimeLog(), READY, Duration.ofMinutes(5), run);
    }

    URI api() {
        return api;
    }

    Path runtimeLog() {
        return logs.resolve("runtime.log");
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + System.getenv().getOrDefault("PGPORT", "5432") + "/" + database(),
                "pastebin",
                "pastebin");
    }

    /** Every S3 object PUT answers 500 until {@link #s3Recovers}. */
    void s3Outage() {
        proxy.outage(FaultProxy.Fault.INTERNAL_ERROR_500);
    }

    void s3Recovers() {
        proxy.recover();
    }

    /** Object PUTs that reached the proxy so far, faulted or not. */
    long s3Puts() {
        return proxy.putCount();
    }

    private static Matcher awaitLine(Path log, Pattern pattern, Duration timeout, Process process)
            throws IOException, InterruptedException {
        Instant until = Instant.now().plus(timeout);
        while (Instant.now().isBefore(until)) {
            if (Files.exists(log)) {
                Matcher m = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (m.find()) {
                    return m;
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(process.info().command().orElse("a process") + " exited; see " + log);
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no line matching " + pattern + " in " + log + " within " + timeout);
    }

    /** After a finished run close() removes the run's queues, bucket and database; an unfinished run's stay to be looked at. */
    void removeResourcesOnClose() {
        removeResources = true;
    }

    /** A client of LocalStack itself, not through the proxy; the SDK's standard retries. */
    <B extends AwsClientBuilder<B, ?>> B localStack(B builder) {
        Map<String, String> env = System.getenv();
        return builder.endpointOverride(URI.create(localStack))
                .region(Region.of(env.getOrDefault("AWS_REGION", "us-east-1")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        env.getOrDefault("AWS_ACCESS_KEY_ID", "test"),
                        env.getOrDefault("AWS_SECRET_ACCESS_KEY", "test"))))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD));
    }

    private void removeResources() {
        try (SqsClient sqs = localStack(SqsClient.builder())
                        .httpClient(UrlConnectionHttpClient.create())
                        .build();
                S3Client s3 = localStack(S3Client.builder())
                        .httpClient(UrlConnectionHttpClient.create())
                        .forcePathStyle(true)
                        .build()) {
            for (String queue : List.of(queue(), deadLetterQueue())) {
                sqs.deleteQueue(
                        b -> b.queueUrl(sqs.getQueueUrl(q -> q.queueName(queue)).queueUrl()));
            }
            s3.listObjectsV2Paginator(b -> b.bucket(bucket())).forEach(page -> {
                if (!page.contents().isEmpty()) {
                    s3.deleteObjects(b -> b.bucket(bucket())
                            .delete(d -> d.objects(page.contents().stream()
                                    .map(o -> ObjectIdentifier.builder()
                                            .key(o.key())
                                            .build())
                                    .toList())));
                }
            });
            s3.deleteBucket(b -> b.bucket(bucket()));
            try (Connection admin = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + System.getenv().getOrDefault("PGPORT", "5432")
                                    + "/postgres",
                            "pastebin",
                            "pastebin");
                    var statement = admin.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + database() + " WITH (FORCE)");
            }
        } catch (RuntimeException | SQLException e) {
            System.err.println("herd: could not remove the run's queues, bucket or database: " + e);
        }
    }

    /** Stops the runtime (run.sh stops only what it started) and the proxy, then removes the run's resources if asked. */
    @Override
    public void close() {
        if (run != null && run.isAlive()) {
            run.destroy();
            try {
                if (!run.waitFor(60, TimeUnit.SECONDS)) {
                    run.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (proxy != null) {
            proxy.close();
        }
        if (removeResources) {
            removeResources();
        }
    }
}
