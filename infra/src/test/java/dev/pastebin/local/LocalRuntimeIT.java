package dev.pastebin.local;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestQueues;
import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local runtime over real HTTP and a real LocalStack queue, with the fixture template's test-only
 * handlers running in their own function JVMs.
 */
@RealServices
class LocalRuntimeIT {

    private static ApplicationContext context;
    /** Polled by the runtime's own event source mapping. */
    private static TestQueues.Pair queue;
    /** Queues driven step by step by a test's own mapping (no poller races them), one per test. */
    private static final List<TestQueues.Pair> direct = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static SqsClient sqs;
    private static int port;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        try (var bootstrap = ApplicationContext.run()) {
            queue = TestQueues.create(bootstrap.getBean(SqsClient.class), "local-runtime", 5, 2);
        }
        context = LocalRuntime.start(new CommandLineFlags.Parsed(Map.of(
                "pastebin.local.root", TestSupport.repositoryRoot().toString(),
                "pastebin.local.template", TestSupport.fixtureTemplate().toString(),
                "pastebin.local.ric-lib", TestSupport.ricLib().toString(),
                "pastebin.local.work-dir", "infra/target/local-runtime-work",
                "pastebin.local.port", "0",
                "pastebin.upload-queue.url", queue.queueUrl()), List.of()));
        sqs = context.getBean(SqsClient.class);
        port = context.getBean(LocalRuntime.class).start();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        try (var c = ApplicationContext.run()) {
            if (queue != null) {
                TestQueues.delete(c.getBean(SqsClient.class), queue);
            }
            direct.forEach(q -> TestQueues.delete(c.getBean(SqsClient.class), q));
        }
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
        var r = send(request("/things").header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString("héllo\r\n\t😀", StandardCharsets.UTF_8)));
        assertEquals(201, r.statusCode(), text(r));
        assertTrue(text(r).contains("routeKey=POST /things\n"), text(r));
        assertTrue(text(r).contains("body=héllo\r\n\t😀\n"), text(r));
        assertTrue(text(r).contains("isBase64Encoded=false\n"), text(r));
        assertEquals("api", r.headers().firstValue("x-handler").orElseThrow());
        assertEquals(List.of("a=1; Path=/", "b=2"), r.headers().allValues("set-cookie"));
    }

    @Test
    void getCarriesPathQueryCookiesAndRepeatedHeaders() throws Exception {
        var r = send(request("/things/abc?a=1&a=2&b=x%20y").header("Cookie", "c1=v1; c2=v2")
                .header("X-Multi", "1").header("X-Multi", "2").GET());
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
    void theEventSourceMappingDeletesExactlyTheMessagesNotReportedAsFailed() throws Exception {
        String url = directQueue();
        var function = context.getBean(LocalFunctions.class).get("BatchFunction");
        var trigger = function.definition().sqsTriggers().getFirst();
        var mapping = new SqsEventSourceMapping(function, trigger, sqs, url, "us-east-1", System.err);
        mapping.resolveQueueArn();
        for (String body : List.of("ok-1", "fail-2", "ok-3")) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageAttributes(Map.of("kind",
                    MessageAttributeValue.builder().dataType("String").stringValue("test").build())));
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

    @Test
    void aFailedInvocationDeletesNothing() throws Exception {
        String url = directQueue();
        var function = context.getBean(LocalFunctions.class).get("BatchFunction");
        var mapping = new SqsEventSourceMapping(function, function.definition().sqsTriggers().getFirst(), sqs, url,
                "us-east-1", System.err);
        mapping.resolveQueueArn();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("throw"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("ok-with-a-throw"));
        List<Message> batch = receiveAll(mapping, 2);
        assertEquals(Set.of(), mapping.process(batch));
        List<Message> back = receiveAll(mapping, 2);
        assertEquals(Set.of("throw", "ok-with-a-throw"), back.stream().map(Message::body).collect(Collectors.toSet()));
    }

    @Test
    void theRuntimesPollerFeedsTheQueueToTheFunctionAndDeletesWhatSucceeded() throws Exception {
        String url = queue.queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("ok-polled"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, String> counts;
        do {
            Thread.sleep(500);
            counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
                    "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        } while (!counts.values().stream().allMatch("0"::equals) && System.nanoTime() < deadline);
        assertEquals(Map.of("ApproximateNumberOfMessages", "0", "ApproximateNumberOfMessagesNotVisible", "0"), counts);
    }

    @Test
    void theScheduleFiresWithTheOverrideInterval() throws Exception {
        var out = new ByteArrayOutputStream();
        var function = context.getBean(LocalFunctions.class).get("ScheduleFunction");
        try (var runner = new ScheduleRunner("us-east-1", "000000000000", new PrintStream(out, true, StandardCharsets.UTF_8))) {
            Duration period = runner.schedule(function, function.definition().scheduleTriggers().getFirst(),
                    Duration.ofSeconds(1));
            assertEquals(Duration.ofSeconds(1), period);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!out.toString(StandardCharsets.UTF_8).contains("ScheduleFunction/Daily: next at")
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("ScheduleFunction/Daily: next at"), out.toString());
    }

    private static String directQueue() {
        TestQueues.Pair q = TestQueues.create(sqs, "local-esm", 5, 2);
        direct.add(q);
        return q.queueUrl();
    }

    /** Receives (with the mapping's batching) until n messages are in hand; fails after 30 s. */
    private static List<Message> receiveAll(SqsEventSourceMapping mapping, int n) {
        var all = new java.util.ArrayList<Message>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (all.size() < n && System.nanoTime() < deadline) {
            all.addAll(mapping.receiveBatch());
        }
        assertEquals(n, all.size(), "messages received");
        return all;
    }

    private static Set<String> ids(List<Message> batch, String... bodies) {
        Set<String> wanted = Set.of(bodies);
        return batch.stream().filter(m -> wanted.contains(m.body())).map(Message::messageId).collect(Collectors.toSet());
    }
}
