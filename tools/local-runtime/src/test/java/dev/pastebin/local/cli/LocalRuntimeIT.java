package dev.pastebin.local.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.TestSupport;
import dev.pastebin.local.lambda.InvocationResult;
import dev.pastebin.local.lambda.LambdaFunction;
import dev.pastebin.local.sqs.SqsEventSourceMapping;
import dev.pastebin.local.testfn.SlowBatchHandler;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The local runtime over real HTTP and real LocalStack queues, with the fixture template's test-only
 * handlers running in their own function JVMs. Every queue is this test's own (--physical-name).
 */
class LocalRuntimeIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final SqsClient SQS = TestSupport.sqs();
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
    private static final List<String> queues = new CopyOnWriteArrayList<>();
    private static String queue;
    private static String pausedQueue;
    private static String slowQueue;
    private static LocalRuntime runtime;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        queue = queue("local-runtime", 2);
        pausedQueue = queue("local-paused", 2);
        slowQueue = queue("local-slow", 180);
        // Two files, as the run command and a caller of its own give them: the later one's variables win.
        Path runCommands = Files.writeString(
                Path.of("target/fixture-env-vars.json"),
                "{\"Parameters\": {\"FIXTURE_LITERAL\": \"from-the-first-file\", \"FIRST_ONLY\": \"kept\"}}");
        Path callers = Files.writeString(
                Path.of("target/fixture-env-vars-2.json"),
                "{\"Parameters\": {\"FIXTURE_LITERAL\": \"from-env-vars\", \"EXTRA\": \"added\"},"
                        + " \"EnvFunction\": {\"EXTRA\": \"for EnvFunction\"}}");
        runtime = LocalRuntime.create(
                TestSupport.settings(
                        Map.of("Queue", queue, "PausedQueue", pausedQueue, "SlowQueue", slowQueue),
                        List.of(runCommands, callers)),
                new PrintStream(new Tee(LOG, System.err), true, StandardCharsets.UTF_8));
        port = runtime.start();
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
        queues.forEach(q -> TestSupport.deleteQueue(SQS, q));
    }

    private static String queue(String prefix, int visibilityTimeoutSeconds) {
        String name = TestSupport.createQueue(SQS, prefix, visibilityTimeoutSeconds);
        queues.add(name);
        return name;
    }

    private static String url(String queueName) {
        return SQS.getQueueUrl(b -> b.queueName(queueName)).queueUrl();
    }

    private static HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery));
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void postGoesToTheRouteWithItsTextBodyAndTheStructuredResponseComesBack() throws Exception {
        var r = send(request("/things")
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString("héllo\r\n\t😀", StandardCharsets.UTF_8)));
        assertEquals(201, r.statusCode(), text(r));
        assertTrue(text(r).contains("routeKey=POST /things\n"), text(r));
        assertTrue(text(r).contains("body=héllo\r\n\t😀\n"), text(r));
        assertTrue(text(r).contains("isBase64Encoded=false\n"), text(r));
        assertEquals("api", r.headers().firstValue("x-handler").orElseThrow());
        assertEquals(List.of("a=1; Path=/", "b=2"), r.headers().allValues("set-cookie"));
    }

    @Test
    void aTextBodyThatIsNotUtf8ArrivesBase64EncodedWithItsBytesUnchanged() throws Exception {
        byte[] bytes = {(byte) 0xff, (byte) 0xfe, ' ', 'b', 'a', 'd'};
        var r = send(request("/things")
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
        assertEquals(201, r.statusCode(), text(r));
        assertTrue(text(r).contains("isBase64Encoded=true\n"), text(r));
        assertTrue(text(r).contains("body=" + Base64.getEncoder().encodeToString(bytes) + "\n"), text(r));
    }

    @Test
    void getCarriesPathQueryCookiesAndRepeatedHeaders() throws Exception {
        var r = send(request("/things/abc?a=1&a=2&b=x%20y")
                .header("Cookie", "c1=v1; c2=v2")
                .header("X-Multi", "1")
                .header("X-Multi", "2")
                .GET());
        assertEquals(200, r.statusCode(), text(r));
        String body = text(r);
        assertTrue(body.contains("routeKey=GET /things/{id}\n"), body);
        assertTrue(body.contains("pathParameters={id=abc}\n"), body);
        assertTrue(body.contains("rawQueryString=a=1&a=2&b=x%20y\n"), body);
        assertTrue(body.contains("query={a=1,2, b=x y}\n"), body);
        assertTrue(body.contains("cookies=[c1=v1, c2=v2]\n"), body);
        assertTrue(body.contains("x-multi=1,2\n"), body);
        assertTrue(body.contains("stage=$default\n"), body);
    }

    @Test
    void headAnswersWithHeadersOnly() throws Exception {
        var r = send(request("/things/abc").method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, r.statusCode());
        assertEquals(0, r.body().length);
        assertEquals("api", r.headers().firstValue("x-handler").orElseThrow());
    }

    @Test
    void binaryResponsesAreDecodedFromBase64() throws Exception {
        var r = send(request("/things/abc/some/binary").GET());
        assertEquals(200, r.statusCode());
        byte[] expected = new byte[256];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) i;
        }
        assertArrayEquals(expected, r.body());
    }

    @Test
    void aPlainReturnValueIsInferredAs200Json() throws Exception {
        var r = send(request("/plain").GET());
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
        assertEquals("{\"hello\":\"world\"}", text(r));
    }

    @Test
    void aFunctionErrorIs500AndAnUnknownRoute404AsApiGatewayAnswers() throws Exception {
        var failed = send(request("/things/abc/fail").GET());
        assertEquals(500, failed.statusCode());
        assertEquals("{\"message\":\"Internal Server Error\"}", text(failed));
        var unknown = send(request("/nothing").GET());
        assertEquals(404, unknown.statusCode());
        assertEquals("{\"message\":\"Not Found\"}", text(unknown));
        assertEquals(404, send(request("/things").DELETE()).statusCode());
    }

    @Test
    void theEnvironmentIsResolvedFromTheTemplateAndOverriddenByTheEnvVarsFilesInOrder() throws Exception {
        var r = runtime.function("EnvFunction").invoke("{}".getBytes(StandardCharsets.UTF_8), "test");
        assertFalse(r.failed(), r.payloadText());
        JsonNode env = Json.MAPPER.readTree(r.payload());
        assertEquals(url(queue), env.get("QUEUE_URL").asText());
        assertEquals(
                "arn:aws:sqs:us-east-1:000000000000:" + queue,
                env.get("QUEUE_ARN").asText());
        assertEquals("us-east-1/" + queue, env.get("REGION_AND_NAME").asText());
        assertEquals("fixture-bucket", env.get("BUCKET_NAME").asText(), "BucketName from the template");
        assertEquals("hello", env.get("GREETING").asText(), "parameter Default");
        assertEquals("s3cr3t", env.get("SECRET").asText(), "parameter override");
        assertEquals("from-env-vars", env.get("FIXTURE_LITERAL").asText());
        assertEquals("for EnvFunction", env.get("EXTRA").asText());
        assertEquals("kept", env.path("FIRST_ONLY").asText(), "a variable only the first file sets");
        assertFalse(env.has("TOPIC"), "a Ref nothing local answers is left unset");
        assertEquals("us-east-1", env.get("AWS_REGION").asText());
        assertEquals(
                System.getenv("AWS_ENDPOINT_URL"), env.path("AWS_ENDPOINT_URL").asText(null));
        assertFalse(env.has("HOME"), "nothing else of this machine's environment");
    }

    @Test
    void theEventSourceMappingDeletesExactlyTheMessagesNotReportedAsFailed() throws Exception {
        var mapping = directMapping(new SqsEventSourceMapping.Settings(10, Duration.ofSeconds(1), true, 2));
        for (String body : List.of("ok-1", "fail-2", "ok-3")) {
            SQS.sendMessage(b -> b.queueUrl(mapping.queue().url())
                    .messageBody(body)
                    .messageAttributes(Map.of(
                            "kind",
                            MessageAttributeValue.builder()
                                    .dataType("String")
                                    .stringValue("test")
                                    .build())));
        }
        List<Message> batch = receiveAll(mapping, 3);
        Set<String> deleted = mapping.process(batch);
        assertEquals(ids(batch, "ok-1", "ok-3"), deleted);

        // The failed one comes back after its visibility timeout (2 s), as the second receive.
        List<Message> again = receiveAll(mapping, 1);
        assertEquals("fail-2", again.getFirst().body());
        assertEquals("2", again.getFirst().attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
        assertEquals(Set.of(), mapping.process(again));
    }

    /**
     * Lambda hands a batch to the function "up to the payload limit for synchronous invocation (6 MB)": ten
     * messages of about 1 MB make two invocations, each event within 6,291,456 bytes, and every message is deleted.
     */
    @Test
    void aBatchLargerThanLambdasPayloadLimitIsHandedOverInInvocationsThatFit() throws Exception {
        List<Integer> events = new CopyOnWriteArrayList<>();
        LambdaFunction batchFunction = runtime.function("BatchFunction");
        LambdaFunction recording = new LambdaFunction() {
            @Override
            public String name() {
                return batchFunction.name();
            }

            @Override
            public InvocationResult invoke(byte[] event, String trigger) throws InterruptedException {
                events.add(event.length);
                return batchFunction.invoke(event, trigger);
            }
        };
        var q = SqsEventSourceMapping.Queue.at(SQS, url(queue("local-esm-large", 30)));
        var mapping = new SqsEventSourceMapping(
                recording, new SqsEventSourceMapping.Settings(10, Duration.ofSeconds(1), true, 2), SQS, q, System.err);
        for (int i = 0; i < 10; i++) {
            String body = "ok-" + i + "-" + "x".repeat(1_000_000);
            SQS.sendMessage(b -> b.queueUrl(q.url()).messageBody(body));
        }
        List<Message> batch = receiveAll(mapping, 10);

        assertEquals(batch.stream().map(Message::messageId).collect(Collectors.toSet()), mapping.process(batch));
        assertEquals(2, events.size(), "invocations: " + events);
        assertTrue(events.stream().allMatch(bytes -> bytes <= 6_291_456), "events: " + events);
    }

    @Test
    void aFailedInvocationDeletesNothing() throws Exception {
        var mapping = directMapping(new SqsEventSourceMapping.Settings(10, Duration.ofSeconds(1), true, 2));
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("throw"));
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("ok-with-a-throw"));
        List<Message> batch = receiveAll(mapping, 2);
        assertEquals(Set.of(), mapping.process(batch));
        List<Message> back = receiveAll(mapping, 2);
        assertEquals(
                Set.of("throw", "ok-with-a-throw"),
                back.stream().map(Message::body).collect(Collectors.toSet()));
    }

    @Test
    void withoutReportBatchItemFailuresASuccessfulInvocationDeletesTheWholeBatch() throws Exception {
        var mapping = directMapping(new SqsEventSourceMapping.Settings(10, Duration.ZERO, false, 2));
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("fail-but-not-reported"));
        List<Message> batch = receiveAll(mapping, 1);
        assertEquals(ids(batch, "fail-but-not-reported"), mapping.process(batch));
    }

    @Test
    void theBatchingWindowCollectsWhatArrivesWithinIt() throws Exception {
        var mapping = directMapping(new SqsEventSourceMapping.Settings(10, Duration.ofSeconds(3), true, 2));
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("first"));
        long t0 = System.nanoTime();
        var batch = CompletableFuture.supplyAsync(mapping::receiveBatch);
        Thread.sleep(1000);
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("second"));
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("third"));
        assertEquals(
                Set.of("first", "second", "third"),
                batch.get().stream().map(Message::body).collect(Collectors.toSet()));
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).toMillis() >= 2500, "waited for the window to end");

        // SQS's longest window, so "did not wait for it" needs no race: a full batch comes back long before.
        var full = directMapping(new SqsEventSourceMapping.Settings(2, Duration.ofSeconds(300), true, 2));
        SQS.sendMessage(b -> b.queueUrl(full.queue().url()).messageBody("a"));
        SQS.sendMessage(b -> b.queueUrl(full.queue().url()).messageBody("b"));
        long t1 = System.nanoTime();
        assertEquals(2, receiveAll(full, 2).size());
        assertTrue(
                Duration.ofNanos(System.nanoTime() - t1).toSeconds() < 240,
                "a full batch does not wait for the window");
    }

    @Test
    void withoutABatchingWindowTheLongPollHandsOverWhatArrivedAtOnce() throws Exception {
        var mapping = directMapping(new SqsEventSourceMapping.Settings(10, Duration.ZERO, true, 2));
        var batch = CompletableFuture.supplyAsync(mapping::receiveBatch);
        Thread.sleep(500);
        SQS.sendMessage(b -> b.queueUrl(mapping.queue().url()).messageBody("lone"));
        // The long poll waits up to 20 s for a first message; the batch ends with it, not with a window.
        assertEquals(
                List.of("lone"),
                batch.get(15, TimeUnit.SECONDS).stream().map(Message::body).toList());
    }

    @Test
    void theRuntimesPollerFeedsTheQueueToTheFunctionAndDeletesWhatSucceeded() throws Exception {
        String url = url(queue);
        String id =
                SQS.sendMessage(b -> b.queueUrl(url).messageBody("ok-polled")).messageId();
        awaitEmpty(url);
        // An empty queue alone would also follow from failed invocations once a redrive moved the message away:
        // the function saw it once, on its first receive, and the runtime deleted it after that invocation.
        // the function's output is pumped from its process: give its line a moment to arrive
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!LOG.toString(StandardCharsets.UTF_8).contains("record " + id + " ") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        String log = LOG.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("record " + id + " receiveCount=1 "), log);
        assertFalse(
                log.contains("record " + id + " receiveCount=2 "),
                "delivered again, so the first invocation failed: " + log);
    }

    @Test
    void maximumConcurrencyTwoRunsTwoBatchesAtOnceInTwoEnvironments() throws Exception {
        String url = url(slowQueue);
        Path meetingPlace = SlowBatchHandler.meetingPlace(
                SQS.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                        .attributes()
                        .get(QueueAttributeName.QUEUE_ARN));
        try {
            SQS.sendMessage(b -> b.queueUrl(url).messageBody("slow-1"));
            SQS.sendMessage(b -> b.queueUrl(url).messageBody("slow-2"));
            // Each batch waits (up to 90 s) until it meets the other one running: overlap by synchronisation.
            awaitEmpty(url, Duration.ofMinutes(4));
            Pattern line = Pattern.compile("batch (slow-\\d) pid=(\\d+) met=(\\S+)");
            Map<String, String> met = new HashMap<>();
            Set<String> pids = new HashSet<>();
            Matcher m = line.matcher(LOG.toString(StandardCharsets.UTF_8));
            while (m.find()) {
                met.put(m.group(1), m.group(3));
                pids.add(m.group(2));
            }
            assertEquals(
                    Map.of("slow-1", "slow-2", "slow-2", "slow-1"),
                    met,
                    "each batch met the other one running: " + LOG.toString(StandardCharsets.UTF_8));
            assertEquals(2, pids.size(), "each in its own execution environment");
            assertEquals(2, runtime.function("SlowBatchFunction").environments());
        } finally {
            try (var files = Files.walk(meetingPlace)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (NoSuchFileException e) {
                // no batch ran
            }
        }
    }

    @Test
    void aDisabledTriggerDoesNotPoll() throws Exception {
        String url = url(pausedQueue);
        SQS.sendMessage(b -> b.queueUrl(url).messageBody("ok-but-paused"));
        Thread.sleep(3000);
        assertEquals("1", counts(url).get("ApproximateNumberOfMessages"), "still waiting, never received");
    }

    private static void awaitEmpty(String url) throws InterruptedException {
        awaitEmpty(url, Duration.ofSeconds(90));
    }

    private static void awaitEmpty(String url, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Map<String, String> counts;
        do {
            Thread.sleep(500);
            counts = counts(url);
        } while (!counts.values().stream().allMatch("0"::equals) && System.nanoTime() < deadline);
        assertEquals(Map.of("ApproximateNumberOfMessages", "0", "ApproximateNumberOfMessagesNotVisible", "0"), counts);
    }

    private static Map<String, String> counts(String url) {
        return SQS.getQueueAttributes(b -> b.queueUrl(url)
                        .attributeNamesWithStrings(
                                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"))
                .attributesAsStrings();
    }

    /** A mapping of BatchFunction on a queue of its own, driven step by step (no poller races it). */
    private static SqsEventSourceMapping directMapping(SqsEventSourceMapping.Settings settings) {
        var q = SqsEventSourceMapping.Queue.at(SQS, url(queue("local-esm", 2)));
        return new SqsEventSourceMapping(runtime.function("BatchFunction"), settings, SQS, q, System.err);
    }

    /** Receives (with the mapping's batching) until n messages are in hand; fails after 30 s. */
    private static List<Message> receiveAll(SqsEventSourceMapping mapping, int n) {
        var all = new ArrayList<Message>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (all.size() < n && System.nanoTime() < deadline) {
            all.addAll(mapping.receiveBatch());
        }
        assertEquals(n, all.size(), "messages received");
        return all;
    }

    private static Set<String> ids(List<Message> batch, String... bodies) {
        Set<String> wanted = Set.of(bodies);
        return batch.stream()
                .filter(m -> wanted.contains(m.body()))
                .map(Message::messageId)
                .collect(Collectors.toSet());
    }

    /** Writes to both streams: the runtime's log is kept for assertions and still shown. */
    private static final class Tee extends OutputStream {

        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
