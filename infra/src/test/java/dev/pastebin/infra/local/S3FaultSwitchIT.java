package dev.pastebin.infra.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The fault proxy's jar (module fault-proxy) run on its own for S3, as `make run ARGS="--s3-faults"` runs it
 * (infra/local/run.sh), switched over its HTTP control API as the README's curl commands switch it.
 */
@RealServices
class S3FaultSwitchIT {

    private static final String LOCALSTACK = System.getenv().getOrDefault("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");

    private Process proxy;
    private URI endpoint;
    private S3Client s3;
    private final String bucket = "faults-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        proxy = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        faultProxyJar().toString(),
                        "--service",
                        "s3",
                        "--port",
                        Integer.toString(port),
                        "--target",
                        LOCALSTACK)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        endpoint = URI.create("http://127.0.0.1:" + port);
        awaitListening();
        s3 = S3Client.builder()
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
        s3.createBucket(b -> b.bucket(bucket));
    }

    @AfterEach
    void stop() {
        if (s3 != null) {
            switchTo("off");
            s3.listObjectsV2(b -> b.bucket(bucket))
                    .contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
            s3.deleteBucket(b -> b.bucket(bucket));
            s3.close();
        }
        if (proxy != null) {
            proxy.destroy();
        }
    }

    @Test
    void anOutageFailsObjectPutsUntilSwitchedOffAndForwardsEverythingElse() {
        s3.putObject(b -> b.bucket(bucket).key("before"), RequestBody.fromString("forwarded"));

        assertTrue(switchTo("outage").contains("\"mode\": \"outage\""));
        var failed = assertThrows(
                S3Exception.class,
                () -> s3.putObject(b -> b.bucket(bucket).key("during"), RequestBody.fromString("x")));
        assertEquals(500, failed.statusCode());
        assertEquals("InternalError", failed.awsErrorDetails().errorCode());
        assertEquals(
                "forwarded",
                s3.getObjectAsBytes(b -> b.bucket(bucket).key("before")).asUtf8String(),
                "reads are never faulted");

        switchTo("off");
        s3.putObject(b -> b.bucket(bucket).key("after"), RequestBody.fromString("back"));
        assertEquals(
                "back", s3.getObjectAsBytes(b -> b.bucket(bucket).key("after")).asUtf8String());
    }

    @Test
    void throttlingAnswersSlowDownAndAFaultWithSecondsSwitchesItselfOff() throws Exception {
        post("/_faults?mode=throttle&seconds=1.5");
        var throttled = assertThrows(
                S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("slow"), RequestBody.fromString("x")));
        assertEquals(503, throttled.statusCode());
        assertEquals("SlowDown", throttled.awsErrorDetails().errorCode());

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get("/_faults").contains("\"mode\": \"off\""));

        s3.putObject(b -> b.bucket(bucket).key("slow"), RequestBody.fromString("x"));
    }

    @Test
    void downDropsEveryConnectionAndObjectPutsAreCountedPerKey() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("counted"), RequestBody.fromString("first"));

        post("/_faults?mode=down&seconds=30");
        assertThrows(
                SdkClientException.class,
                () -> s3.putObject(b -> b.bucket(bucket).key("counted"), RequestBody.fromString("second")));
        assertThrows(
                SdkClientException.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("counted")),
                "down is S3 gone: reads fail too");

        switchTo("off");
        assertEquals(
                "first",
                s3.getObjectAsBytes(b -> b.bucket(bucket).key("counted")).asUtf8String());
        assertTrue(
                get("/_faults/puts").contains("\"" + bucket + "/counted\": [2, 1]"),
                "two PUTs of the key reached the proxy, one of them faulted");
        assertTrue(get("/_faults/requests").contains("\"s3.PutObject\": 2"), "requests are counted by S3 operation");
    }

    @Test
    void aBadSwitchIsRefused() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(endpoint.resolve("/_faults?mode=meteor"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode());
    }

    private String switchTo(String mode) {
        try {
            return post("/_faults?mode=" + mode);
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private String post(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(endpoint.resolve(path))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private String get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(endpoint.resolve(path)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private void awaitListening() throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            try {
                get("/_faults");
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the fault proxy did not start listening on " + endpoint);
    }

    /** The jar the build made (this module depends on fault-proxy for the build order), as run.sh finds it. */
    private static Path faultProxyJar() throws IOException {
        try (Stream<Path> files = Files.list(TestSupport.repositoryRoot().resolve("tools/fault-proxy/target"))) {
            return files.filter(f -> f.getFileName().toString().matches("pastebin-fault-proxy-.*(?<!-tests)\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("tools/fault-proxy/target holds no jar: build it first"));
        }
    }
}
