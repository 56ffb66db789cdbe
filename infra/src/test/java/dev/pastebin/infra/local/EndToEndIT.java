package dev.pastebin.infra.local;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import dev.pastebin.local.Json;
import dev.pastebin.local.cli.LocalRuntime;
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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The end-to-end test of the local run: the LocalRuntime main in its own JVM with the flags `make run` gives
 * it, the real template and the real function artifacts, its own queue and bucket. POST a paste, read it
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
        TestSupport.migrate();
        try (var context = ApplicationContext.run()) {
            queue = TestQueues.create(context.getBean(SqsClient.class), "local-e2e", 10, 30);
            bucket = "local-e2e-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBean(S3Client.class).createBucket(b -> b.bucket(bucket));
        }
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path root = TestSupport.repositoryRoot();
        Path target = root.resolve("local-runtime/target");
        Path jar;
        try (var files = Files.list(target)) {
            jar = files.filter(p -> p.getFileName().toString().matches("pastebin-local-runtime-.*\\.jar")
                    && !p.getFileName().toString().endsWith("-tests.jar")).findFirst().orElseThrow();
        }
        String classpath = jar + ":" + Files.readString(target.resolve("runtime-classpath.txt")).trim();
        Path envVars = Files.writeString(root.resolve("infra/target/e2e-env-vars.json"), envVars());
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, LocalRuntime.class.getName(), "--template", "infra/template.yaml",
                "--env-vars", envVars.toString(), "--port", Integer.toString(port), "--physical-name",
                "UploadQueue=" + TestSupport.queueName(queue.queueUrl()) + ",UploadDeadLetterQueue="
                        + TestSupport.queueName(queue.deadLetterQueueUrl()) + ",PasteBucket=" + bucket)
                .directory(root.toFile()).redirectErrorStream(true);
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

    /** What infra/local/lib.sh's env_vars_json gives the functions, for the database the tests use. */
    private static String envVars() throws java.io.IOException {
        return Json.MAPPER.writeValueAsString(Map.of("Parameters", Map.of(
                "DATASOURCES_DEFAULT_URL", env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                "DATASOURCES_DEFAULT_USERNAME", env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                "DATASOURCES_DEFAULT_PASSWORD", env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                "AWS_S3_PATH_STYLE_ACCESS_ENABLED", "true")));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
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
        // Without a batching window the upload may already be done: 200, or 202 while it is in progress.
        assertTrue(first.statusCode() == 200 || first.statusCode() == 202, new String(first.body(), StandardCharsets.UTF_8));
        if (first.statusCode() == 202) {
            assertTrue(new String(first.body(), StandardCharsets.UTF_8).contains("IN_PROGRESS"));
        }

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

    /** The HTTP API passes bytes that are not UTF-8 unchanged (base64), so the function can refuse them. */
    @Test
    void aTextBodyThatIsNotUtf8IsRefusedByTheCreateFunction() throws Exception {
        byte[] invalid = {(byte) 0xff, (byte) 0xfe, ' ', 'b', 'a', 'd'};
        var created = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/pastes"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofByteArray(invalid)).build());
        String body = new String(created.body(), StandardCharsets.UTF_8);
        assertEquals(400, created.statusCode(), body);
        assertTrue(body.contains("\"INVALID_UTF8\""), body);
    }
}
