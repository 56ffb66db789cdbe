package dev.pastebin.benchmarks.herd;

import dev.pastebin.benchmarks.queues.QueueEngine;
import dev.pastebin.faults.FaultProxy;
import dev.pastebin.testkit.LocalRuntimeLauncher;
import dev.pastebin.testkit.LocalStack;
import dev.pastebin.testkit.RunDatabase;
import dev.pastebin.testkit.RunNames;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The real local system, started by the README's run command ({@code infra/local/run.sh --no-build}) on the
 * running PostgreSQL and LocalStack, with a database, queues and bucket named after the run (created by the run
 * command's {@code up}; removed after a finished run), and the fault-proxy module's S3 proxy, in this JVM, in front of LocalStack's S3 (the functions' own
 * {@code AWS_ENDPOINT_URL_S3}). The upload function runs as the template says: its built artifact, under the
 * runtime's SQS event source mapping, as many environments as its MaximumConcurrency. SQS is the {@link QueueEngine}'s:
 * LocalStack's, or an ElasticMQ's with the same queues ({@code --queue-engine elasticmq}).
 */
final class HerdSystem implements AutoCloseable {

    private final Path root;
    private final RunNames names;
    private final RunDatabase database;
    private String localStack;
    private boolean removeResources;
    private final Path logs;
    private QueueEngine queues;
    private FaultProxy proxy;
    private LocalRuntimeLauncher run;

    private HerdSystem(Path root, String prefix, String runId, Path logs) {
        this.root = root;
        this.names = RunNames.of(prefix, runId);
        this.database = new RunDatabase(
                "127.0.0.1",
                Integer.parseInt(System.getenv().getOrDefault("PGPORT", "5432")),
                "pastebin",
                "pastebin",
                names.database());
        this.logs = logs;
    }

    /**
     * {@code prefix}: the run's names begin with it ({@code <prefix>_<run>}, {@code <prefix>-<run>-uploads}, ...);
     * {@code runArguments}: more arguments of the run command, e.g. {@code --parameter-overrides CreateAccess=api-key}.
     */
    static HerdSystem start(
            Path root,
            String prefix,
            String runId,
            Path logs,
            int apiPort,
            String localStack,
            QueueEngine queues,
            List<String> runArguments)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        HerdSystem system = new HerdSystem(root, prefix, runId, logs);
        try {
            system.startAll(apiPort, localStack, queues, runArguments);
            return system;
        } catch (IOException | InterruptedException | RuntimeException e) {
            system.close();
            throw e;
        }
    }

    String queue() {
        return names.queue();
    }

    /** The SQS endpoint of the run's queues. */
    String sqsEndpoint() {
        return queues.endpoint();
    }

    private void startAll(int apiPort, String localStack, QueueEngine queues, List<String> runArguments)
            throws IOException, InterruptedException {
        this.localStack = localStack;
        this.queues = queues;
        if (queues.ownQueues()) {
            prepareQueues();
        }
        proxy = new FaultProxy(URI.create(localStack));
        run = LocalRuntimeLauncher.runCommand(root)
                .port(apiPort)
                .environment(names.environment())
                .environment(queues.environment())
                .through(proxy)
                .arguments(runArguments)
                .logTo(runtimeLog())
                .readyWithin(Duration.ofMinutes(5))
                .start();
    }

    /**
     * The run command's own {@code up} first (idempotent; the run command repeats it), so that LocalStack has the run's
     * queues as the template makes them, then the same queues, upload and moderation outbox, in the queue engine.
     */
    private void prepareQueues() throws IOException, InterruptedException {
        ProcessBuilder up = new ProcessBuilder("infra/local/up")
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve("up.log").toFile());
        up.environment().keySet().removeAll(List.of("PASTEBIN_UPLOAD_QUEUE_URL", "PASTEBIN_UPLOAD_DLQ_URL"));
        up.environment().putAll(names.environment());
        int status = up.start().waitFor();
        if (status != 0) {
            throw new IllegalStateException("infra/local/up failed (" + status + "): " + logs.resolve("up.log"));
        }
        Map<String, String> env = System.getenv();
        queues.prepare(List.of(
                names.deadLetterQueue(),
                names.queue(),
                env.getOrDefault("PASTEBIN_MODERATION_OUTBOX_DLQ", "pastebin-moderation-outbox-dlq"),
                env.getOrDefault("PASTEBIN_MODERATION_OUTBOX", "pastebin-moderation-outbox")));
    }

    URI api() {
        return run.api();
    }

    Path runtimeLog() {
        return logs.resolve("runtime.log");
    }

    Connection connect() throws SQLException {
        return database.connect();
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

    /** After a finished run close() removes the run's queues, bucket and database; an unfinished run's stay to be looked at. */
    void removeResourcesOnClose() {
        removeResources = true;
    }

    /** A client of LocalStack itself, not through the proxy; the SDK's standard retries. */
    <B extends AwsClientBuilder<B, ?>> B localStack(B builder) {
        return LocalStack.configure(builder, localStack)
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
            names.removeFrom(sqs, s3);
            database.drop();
        } catch (RuntimeException | SQLException e) {
            System.err.println("herd: could not remove the run's queues, bucket or database: " + e);
        }
    }

    /** Stops the runtime (run.sh stops only what it started) and the proxy, then removes the run's resources if asked. */
    @Override
    public void close() {
        if (run != null) {
            run.stop();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (removeResources) {
            removeResources();
        }
    }
}
