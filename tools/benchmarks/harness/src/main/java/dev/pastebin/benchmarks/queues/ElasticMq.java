package dev.pastebin.benchmarks.queues;

import dev.pastebin.testkit.LocalStack;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * ElasticMQ, an SQS-compatible server, as a child JVM for one run: {@code org.elasticmq.server.Main} on the class
 * path Maven resolved for tools/benchmarks/elasticmq (its {@code target/classpath.txt}, written by
 * tools/benchmarks/lib.sh {@code bench_elasticmq}), in memory, on 127.0.0.1 and one port, its queue ARNs in the
 * same region and account as LocalStack's ({@code arn:aws:sqs:us-east-1:000000000000:<name>}), so that a
 * RedrivePolicy copied from a LocalStack queue names the same dead-letter queue here. {@link #close()} stops it.
 */
public final class ElasticMq implements AutoCloseable {

    /** The version tools/benchmarks/elasticmq/pom.xml resolves. */
    public static final String VERSION = "1.6.14";

    private static final String MAIN_CLASS = "org.elasticmq.server.Main";

    private final Process process;
    private final URI endpoint;

    private ElasticMq(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /**
     * Starts ElasticMQ on {@code port} (0: a free one) and returns once it answers ListQueues; its output goes to
     * {@code log}.
     */
    public static ElasticMq start(Path repo, int port, Path log) throws IOException, InterruptedException {
        Path classpath = repo.resolve("tools/benchmarks/elasticmq/target/classpath.txt");
        if (!Files.isRegularFile(classpath)) {
            throw new IllegalStateException("ElasticMQ's class path is not resolved (no " + classpath
                    + "); tools/benchmarks/lib.sh bench_elasticmq writes it");
        }
        int chosen = port != 0 ? port : freePort();
        String region = System.getenv().getOrDefault("AWS_REGION", "us-east-1");
        Path config = Files.createTempFile("elasticmq-", ".conf");
        Files.writeString(config, """
                include classpath("application.conf")
                pekko.loglevel = "INFO"
                node-address { protocol = "http", host = "127.0.0.1", port = %d, context-path = "" }
                rest-sqs { enabled = true, bind-port = %d, bind-hostname = "127.0.0.1", sqs-limits = strict }
                rest-stats.enabled = false
                aws { region = "%s", accountId = "000000000000" }
                """.formatted(chosen, chosen, region));
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-Dconfig.file=" + config,
                        "-cp",
                        Files.readString(classpath).trim(),
                        MAIN_CLASS))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ElasticMq server = new ElasticMq(process, URI.create("http://127.0.0.1:" + chosen));
        try {
            server.awaitAnswering(Duration.ofMinutes(1), log);
            return server;
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The SQS endpoint, e.g. for {@code AWS_ENDPOINT_URL_SQS}. */
    public URI endpoint() {
        return endpoint;
    }

    /** A client of this server; the environment's region and credentials. */
    public SqsClient client() {
        return LocalStack.configure(SqsClient.builder(), endpoint.toString())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    private void awaitAnswering(Duration limit, Path log) throws InterruptedException {
        Instant until = Instant.now().plus(limit);
        try (SqsClient sqs = client()) {
            while (true) {
                try {
                    sqs.listQueues();
                    return;
                } catch (SdkException e) {
                    if (!process.isAlive() || Instant.now().isAfter(until)) {
                        throw new IllegalStateException(
                                "ElasticMQ did not answer on " + endpoint + " (its output: " + log + ")", e);
                    }
                    Thread.sleep(200);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
