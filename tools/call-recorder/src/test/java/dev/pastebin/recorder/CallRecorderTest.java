package dev.pastebin.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Real SDK clients, built as a function builds them (no interceptor named anywhere), against a stub server on
 * 127.0.0.1: the recorder is on this JVM's class path with the SDK's registration file, and Surefire gives the
 * JVM the variables the local runtime gives a function's process (the module's pom). Each test reads the lines its
 * calls appended: a call has returned only after its line was written.
 */
class CallRecorderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BUCKET = "recorder-test-bucket";
    private static final String QUEUE = "recorder-test-queue";

    private static HttpServer server;
    private static URI endpoint;
    private static Path file;

    @BeforeAll
    static void stubServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", CallRecorderTest::answer);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        file = Path.of(System.getenv(CallRecorder.DIRECTORY_VARIABLE))
                .toAbsolutePath()
                .resolve("RecorderTestFunction-" + ProcessHandle.current().pid() + ".jsonl");
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    /** Just enough of S3 (REST-XML) and SQS (AWS JSON 1.0) for the calls below. */
    private static void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String method = exchange.getRequestMethod();
            String query = exchange.getRequestURI().getRawQuery();
            if (exchange.getRequestHeaders().containsKey("X-amz-target")) {
                respond(exchange, 200, "application/x-amz-json-1.0", "{\"Attributes\":{}}");
            } else if (method.equals("DELETE")) {
                exchange.sendResponseHeaders(204, -1);
            } else if (method.equals("POST") && query != null && query.startsWith("delete")) {
                respond(
                        exchange,
                        200,
                        "application/xml",
                        "<DeleteResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"></DeleteResult>");
            } else {
                respond(
                        exchange,
                        404,
                        "application/xml",
                        "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>");
            }
        }
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static S3ClientBuilder s3Builder(URI to) {
        return S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .endpointOverride(to)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
    }

    /** The lines {@code calls} appended to this process's record file. */
    private static List<JsonNode> recorded(Runnable calls) throws IOException {
        int before = lines().size();
        calls.run();
        List<String> all = lines();
        List<JsonNode> parsed = new ArrayList<>();
        for (String line : all.subList(before, all.size())) {
            parsed.add(JSON.readTree(line));
        }
        return parsed;
    }

    private static List<String> lines() throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    private static JsonNode only(List<JsonNode> lines) {
        assertEquals(1, lines.size(), lines.toString());
        return lines.get(0);
    }

    @Test
    void anS3CallIsOneLineWithItsBucketTheKeysPrefixAndTheVariableNamingTheBucket() throws IOException {
        JsonNode line;
        try (S3Client s3 = s3Builder(endpoint).build()) {
            line = only(recorded(() -> s3.deleteObject(b -> b.bucket(BUCKET).key("pastes/aB3xYz9Q"))));
        }
        assertEquals(
                JSON.readTree("{\"function\":\"RecorderTestFunction\",\"service\":\"S3\",\"signingName\":\"s3\","
                        + "\"operation\":\"DeleteObject\",\"scheme\":\"http\",\"host\":\"127.0.0.1:"
                        + endpoint.getPort() + "\",\"identifiers\":{\"Bucket\":\"" + BUCKET + "\",\"Key\":\"pastes/\"},"
                        + "\"env\":{\"Bucket\":[\"RECORDER_TEST_BUCKET\"],\"Key\":[]},\"status\":204,\"error\":null,"
                        + "\"presigned\":false}"),
                line);
    }

    @Test
    void deleteObjectsRecordsTheDistinctPrefixesOfItsKeys() throws IOException {
        JsonNode line;
        try (S3Client s3 = s3Builder(endpoint).build()) {
            line = only(recorded(() -> s3.deleteObjects(b -> b.bucket(BUCKET)
                    .delete(d -> d.objects(
                            ObjectIdentifier.builder().key("pastes/one").build(),
                            ObjectIdentifier.builder().key("pastes/two").build(),
                            ObjectIdentifier.builder().key("at-the-root").build())))));
        }
        assertEquals("DeleteObjects", line.get("operation").asText());
        assertEquals(BUCKET, line.at("/identifiers/Bucket").asText());
        assertEquals(JSON.readTree("[\"pastes/\",\"\"]"), line.at("/identifiers/Delete.Objects.Key"));
        assertEquals(200, line.get("status").asInt());
    }

    @Test
    void aServiceErrorHasItsStatusAndTheExceptionsClass() throws IOException {
        JsonNode line;
        try (S3Client s3 = s3Builder(endpoint).build()) {
            line = only(recorded(() -> assertThrows(
                    NoSuchKeyException.class,
                    () -> s3.getObject(b -> b.bucket(BUCKET).key("pastes/missing")))));
        }
        assertEquals("GetObject", line.get("operation").asText());
        assertEquals(404, line.get("status").asInt());
        assertEquals(NoSuchKeyException.class.getName(), line.get("error").asText());
    }

    @Test
    void aCallWithoutAResponseIsAnErrorWithTheHostItTried() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        URI nowhere = URI.create("http://127.0.0.1:" + closed);
        JsonNode line;
        try (S3Client s3 = s3Builder(nowhere)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {
            line = only(recorded(() -> assertThrows(
                    SdkClientException.class,
                    () -> s3.getObject(b -> b.bucket(BUCKET).key("pastes/x")))));
        }
        assertEquals("error", line.get("status").asText());
        assertEquals(SdkClientException.class.getName(), line.get("error").asText());
        assertEquals("127.0.0.1:" + closed, line.get("host").asText());
    }

    @Test
    void aQueueUrlIsMappedToTheVariableHoldingItsQueuesName() throws IOException {
        String queueUrl = endpoint + "/000000000000/" + QUEUE;
        JsonNode line;
        try (SqsClient sqs = SqsClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            line = only(recorded(() -> sqs.getQueueAttributes(b -> b.queueUrl(queueUrl))));
        }
        assertEquals("Sqs", line.get("service").asText());
        assertEquals("sqs", line.get("signingName").asText());
        assertEquals("GetQueueAttributes", line.get("operation").asText());
        assertEquals(queueUrl, line.at("/identifiers/QueueUrl").asText());
        assertEquals(JSON.readTree("[\"RECORDER_TEST_QUEUE\"]"), line.at("/env/QueueUrl"));
    }

    @Test
    void concurrentCallsWriteWholeLines() throws Exception {
        int threads = 8;
        int callsEach = 25;
        List<JsonNode> lines;
        try (S3Client s3 = s3Builder(endpoint).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                lines = recorded(() -> {
                    List<Future<?>> done = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        done.add(pool.submit(() -> {
                            for (int i = 0; i < callsEach; i++) {
                                s3.deleteObject(b -> b.bucket(BUCKET).key("pastes/concurrent"));
                            }
                        }));
                    }
                    for (Future<?> f : done) {
                        try {
                            f.get();
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }
                });
            } finally {
                pool.shutdown();
            }
        }
        // every line parsed (recorded() reads them with a JSON parser) and none is missing
        assertEquals(threads * callsEach, lines.size());
        assertTrue(lines.stream().allMatch(l -> l.get("operation").asText().equals("DeleteObject")));
    }

    @Test
    void aDirectoryThatCannotBeWrittenLeavesTheCallAlone(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("a-file"), "");
        var broken = new CallRecorder(Map.of(
                CallRecorder.DIRECTORY_VARIABLE,
                notADirectory.resolve("calls").toString(),
                CallRecorder.FUNCTION_VARIABLE,
                "BrokenRecorder"));
        try (S3Client s3 = s3Builder(endpoint)
                .overrideConfiguration(o -> o.addExecutionInterceptor(broken))
                .build()) {
            s3.deleteObject(b -> b.bucket(BUCKET).key("pastes/still-deleted"));
        }
        assertTrue(Files.isRegularFile(notADirectory));
    }

    @Test
    void stringsAreEscapedAsJsonRequires() throws IOException {
        String awkward = "quote \" backslash \\ newline \n tab \t bell \u0007 separator \u2028 umlaut ü";
        String line = new CallLine.Json()
                .field("text", awkward)
                .name("map")
                .map(Map.of(awkward, List.of(awkward)))
                .end();
        JsonNode parsed = JSON.readTree(line);
        assertEquals(awkward, parsed.get("text").asText());
        assertEquals(awkward, parsed.get("map").get(awkward).get(0).asText());
        assertTrue(line.lines().count() == 1, line);
    }

    @Test
    void aKeyIsCutAfterItsFirstSlash() {
        assertEquals("pastes/", CallLine.keyPrefix("pastes/a/b"));
        assertEquals("", CallLine.keyPrefix("no-slash"));
    }
}
