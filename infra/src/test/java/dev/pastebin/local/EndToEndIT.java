package dev.pastebin.local;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The end-to-end test of the local run: the LocalRuntime main in its own JVM, as `make run` starts it, with
 * the real template and the real function artifacts, its own queue and bucket. POST a paste, read it
 * IN_PROGRESS, then poll until the upload function has stored it and the read returns the same bytes.
 */
@RealServices
class EndToEndIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestQueues.Pair queue;
    private static String bucket;
    private static Process runtime;
    private static int port;
    private static final StringBuffer output = new StringBuffer();

    @BeforeAll
    static void start() throws Exception {
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "local-e2e", 10, 30);
            bucket = "local-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        }
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path root = TestSupport.repositoryRoot();
        Path jar;
        try (var files = Files.list(root.resolve("infra/target"))) {
            jar = files.filter(p -> p.getFileName().toString().matches("pastebin-infra-.*\\.jar")
                    && !p.getFileName().toString().endsWith("-tests.jar")).findFirst().orElseThrow();
        }
        String classpath = jar + ":" + Files.readString(root.resolve("infra/target/runtime-classpath.txt")).trim();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, LocalRuntime.class.getName(), "--root", root.toString(), "--port", Integer.toString(port))
                .directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("PASTEBIN_UPLOAD_QUEUE_URL", queue.queueUrl());
        pb.environment().put("PASTEBIN_UPLOAD_DLQ_URL", queue.deadLetterQueueUrl());
        pb.environment().put("PASTEBIN_STORAGE_BUCKET", bucket);
        pb.environment().put("AWS_S3_PATH_STYLE_ACCESS_ENABLED", "true");
        runtime = pb.start();
        CompletableFuture<Void> listening = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (var in = new BufferedReader(new InputStreamReader(runtime.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    System.err.println("[runtime] " + line);
                    output.append(line).append('\n');
                    if (line.contains("Local API listening")) {
                        listening.complete(null);
                    }
                }
            } catch (java.io.IOException e) {
                // the runtime is gone
            }
            listening.completeExceptionally(new IllegalStateException("the runtime exited:\n" + output));
        });
        listening.get(180, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (runtime != null) {
            runtime.destroy();
            assertTrue(runtime.waitFor(30, TimeUnit.SECONDS), "the runtime stops on TERM");
        }
        try (var context = ApplicationContext.run()) {
            if (queue != null) {
                TestQueues.delete(context.getBean(SqsClient.class), queue);
            }
        }
    }

    private static HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aPastePostedThroughTheLocalApiIsUploadedAndReadBackByteForByte() throws Exception {
        byte[] content = "Grüße, 世界! 😀\r\n\tcolumns\tand CRLF\r\n".getBytes(StandardCharsets.UTF_8);
        var created = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/pastes"))
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(content)).build());
        assertEquals(201, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
        String location = created.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("/pastes/"), location);
        URI paste = URI.create("http://127.0.0.1:" + port + location);

        var first = send(HttpRequest.newBuilder(paste).GET().build());
        assertEquals(202, first.statusCode(), new String(first.body(), StandardCharsets.UTF_8));
        assertTrue(new String(first.body(), StandardCharsets.UTF_8).contains("IN_PROGRESS"));

        List<Integer> statuses = new ArrayList<>();
        HttpResponse<byte[]> read = first;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (read.statusCode() == 202 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            read = send(HttpRequest.newBuilder(paste).GET().build());
            statuses.add(read.statusCode());
        }
        assertEquals(200, read.statusCode(), "statuses while polling: " + statuses + "\n" + output);
        assertArrayEquals(content, read.body());
    }
}
