package dev.pastebin.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.pastebin.faults.FaultProxy.Fault;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy against a tiny stand-in for LocalStack that answers 200 with what it received. */
class FaultProxyTest {

    /** The size the stand-in's HEAD reports, as S3 reports an object's. */
    private static final long OBJECT_SIZE = 1_234_567;

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private HttpServer localStack;
    private FaultProxy proxy;

    @BeforeEach
    void startLocalStack() throws IOException {
        localStack = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        localStack.createContext("/", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                String seen = exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + body;
                received.add(seen);
                byte[] answer = seen.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("x-amz-request-id", "from-localstack");
                if ("HEAD".equals(exchange.getRequestMethod())) {
                    // as S3 answers HeadObject: the object's size in Content-Length, no body
                    exchange.getResponseHeaders().set("Content-Length", String.valueOf(OBJECT_SIZE));
                    exchange.sendResponseHeaders(200, -1);
                    return;
                }
                exchange.sendResponseHeaders(200, answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        localStack.start();
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        localStack.stop(0);
    }

    @Test
    void forwardsEveryRequestUnchangedAndCountsItByOperation() throws Exception {
        proxy = proxy(Service.S3);

        HttpResponse<String> put = send("PUT", "/bucket/abc?x=1", "content", Map.of("x-amz-meta-kind", "paste"));

        assertEquals(200, put.statusCode());
        assertEquals("PUT /bucket/abc?x=1 content", put.body());
        assertEquals(
                "from-localstack", put.headers().firstValue("x-amz-request-id").orElseThrow());
        send("GET", "/bucket/abc", "");
        send("GET", "/bucket?list-type=2&prefix=", "");
        assertEquals(Map.of("s3.GetObject", 1, "s3.ListObjectsV2", 1, "s3.PutObject", 1), proxy.requestCounts());
    }

    /** HeadObject's size is its answer's Content-Length: the proxy passes it on, though a HEAD answer has no body. */
    @Test
    void aHeadAnswerKeepsItsContentLength() throws Exception {
        proxy = proxy(Service.S3);

        HttpResponse<String> head = send("HEAD", "/bucket/staging/abc/0", "");

        assertEquals(200, head.statusCode());
        assertEquals(
                String.valueOf(OBJECT_SIZE),
                head.headers().firstValue("content-length").orElse("none"),
                "the object's size, as LocalStack answered it");
        assertEquals(Map.of("s3.HeadObject", 1), proxy.requestCounts());
    }

    @Test
    void failedHeadsAnswerTheFaultWithoutABodyUntilRecovered() throws Exception {
        proxy = proxy(Service.S3);
        proxy.failHeads(Fault.INTERNAL_ERROR_500);

        HttpResponse<String> failed = send("HEAD", "/bucket/staging/abc/0", "");
        assertEquals(500, failed.statusCode());
        assertEquals(
                "fault-proxy", failed.headers().firstValue("x-amz-request-id").orElseThrow());
        assertEquals("", failed.body());
        assertEquals(200, send("GET", "/bucket/staging/abc/0", "").statusCode(), "GETs pass");
        assertEquals(
                List.of(), received.stream().filter(r -> r.startsWith("HEAD")).toList(), "nothing forwarded");

        proxy.recover();
        assertEquals(200, send("HEAD", "/bucket/staging/abc/0", "").statusCode());
    }

    @Test
    void scriptedPutsFailInOrderThenPassAndAreCountedPerObjectName() throws Exception {
        proxy = proxy(Service.S3);
        proxy.failPuts("abc", Fault.INTERNAL_ERROR_500, Fault.SLOW_DOWN_503);

        HttpResponse<String> first = send("PUT", "/bucket/abc", "x");
        HttpResponse<String> second = send("PUT", "/bucket/abc", "x");
        HttpResponse<String> third = send("PUT", "/bucket/abc", "x");

        assertEquals(500, first.statusCode());
        assertTrue(first.body().contains("<Code>InternalError</Code>"), first.body());
        assertEquals(503, second.statusCode());
        assertTrue(second.body().contains("<Code>SlowDown</Code>"), second.body());
        assertEquals(200, third.statusCode());
        assertEquals(List.of("PUT /bucket/abc x"), received, "only the passing PUT reached LocalStack");
        assertEquals(3, proxy.putCount("abc"));
        assertEquals(new PutCount(3, 2), proxy.putCounts().get("bucket/abc"));
        assertEquals(1, proxy.putsByObjectName().get("abc").forwarded());
    }

    @Test
    void anS3OutageFailsObjectPutsOnlyUntilRecovered() throws Exception {
        proxy = proxy(Service.S3);
        proxy.outage(Fault.ACCESS_DENIED_403);

        assertEquals(403, send("PUT", "/bucket/a", "x").statusCode());
        assertEquals(200, send("GET", "/bucket/a", "").statusCode(), "reads pass");
        assertEquals(200, send("PUT", "/bucket", "").statusCode(), "a bucket PUT is no object PUT");

        proxy.recover();
        assertEquals(200, send("PUT", "/bucket/a", "x").statusCode());
    }

    @Test
    void everyOtherPutFailsAndFailedGetsAreCounted() throws Exception {
        proxy = proxy(Service.S3);
        proxy.failEveryOtherPut(Fault.INTERNAL_ERROR_500);
        proxy.failGets(Fault.SLOW_DOWN_503);

        assertEquals(
                List.of(500, 200, 500, 200),
                List.of(
                        send("PUT", "/b/1", "x").statusCode(),
                        send("PUT", "/b/2", "x").statusCode(),
                        send("PUT", "/b/3", "x").statusCode(),
                        send("PUT", "/b/4", "x").statusCode()));
        assertEquals(503, send("GET", "/b/1", "").statusCode());
        assertEquals(1, proxy.faultedGetCount());
        assertEquals(4, proxy.putCount());
    }

    @Test
    void refusedDeletesAnswerAnErrorPerKeyAndDeleteNothing() throws Exception {
        proxy = proxy(Service.S3);
        proxy.refuseDeletes();

        HttpResponse<String> refused = send(
                "POST",
                "/bucket?delete",
                "<Delete><Object><Key>a</Key></Object><Object><Key>b</Key></Object></Delete>");

        assertEquals(200, refused.statusCode());
        assertTrue(refused.body().contains("<Error><Key>a</Key><Code>AccessDenied</Code>"), refused.body());
        assertTrue(refused.body().contains("<Error><Key>b</Key><Code>AccessDenied</Code>"), refused.body());
        assertEquals(List.of(), received);
        assertEquals(List.of(2), proxy.deleteObjectsCalls());
        assertEquals(Map.of("s3.DeleteObjects", 1), proxy.requestCounts());
    }

    @Test
    void sqsFaultsHitEveryCallInTheJsonProtocol() throws Exception {
        proxy = proxy(Service.SQS);
        Map<String, String> sendMessage =
                Map.of("X-Amz-Target", "AmazonSQS.SendMessage", "Content-Type", "application/x-amz-json-1.0");

        proxy.switchOn(Mode.OUTAGE, Duration.ofMinutes(1));
        HttpResponse<String> unavailable = send("POST", "/", "{}", sendMessage);
        proxy.switchOn(Mode.THROTTLE, Duration.ofMinutes(1));
        HttpResponse<String> throttled = send("POST", "/", "{}", sendMessage);
        proxy.switchOn(Mode.OFF, 1.0, null);
        HttpResponse<String> passed = send(
                "POST",
                "/",
                "Action=ReceiveMessage&QueueUrl=q",
                Map.of("Content-Type", "application/x-www-form-urlencoded"));

        assertEquals(503, unavailable.statusCode());
        assertTrue(
                unavailable.body().contains("\"__type\":\"com.amazonaws.sqs#ServiceUnavailable\""), unavailable.body());
        assertEquals(
                "ServiceUnavailable;Receiver",
                unavailable.headers().firstValue("x-amzn-query-error").orElseThrow());
        assertEquals(400, throttled.statusCode());
        assertEquals(
                "ThrottlingException;Sender",
                throttled.headers().firstValue("x-amzn-query-error").orElseThrow());
        assertEquals(200, passed.statusCode());
        assertEquals(Map.of("sqs.ReceiveMessage", 1, "sqs.SendMessage", 2), proxy.requestCounts());
    }

    @Test
    void secretsManagerFaultsHitEveryCallInItsJsonProtocol() throws Exception {
        proxy = proxy(Service.SECRETS_MANAGER);
        Map<String, String> getSecretValue =
                Map.of("X-Amz-Target", "secretsmanager.GetSecretValue", "Content-Type", "application/x-amz-json-1.1");

        proxy.switchOn(Mode.OUTAGE, Duration.ofMinutes(1));
        HttpResponse<String> failed = send("POST", "/", "{}", getSecretValue);
        proxy.switchOn(Mode.THROTTLE, Duration.ofMinutes(1));
        HttpResponse<String> throttled = send("POST", "/", "{}", getSecretValue);
        proxy.recover();
        HttpResponse<String> passed = send("POST", "/", "{\"SecretId\":\"db\"}", getSecretValue);

        assertEquals(500, failed.statusCode());
        assertTrue(failed.body().contains("\"__type\":\"InternalServiceError\""), failed.body());
        assertEquals(
                "application/x-amz-json-1.1",
                failed.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(400, throttled.statusCode());
        assertTrue(throttled.body().contains("\"__type\":\"ThrottlingException\""), throttled.body());
        assertEquals(200, passed.statusCode());
        assertEquals("POST / {\"SecretId\":\"db\"}", passed.body());
        assertEquals(Map.of("secretsmanager.GetSecretValue", 3), proxy.requestCounts());
    }

    @Test
    void downDropsEveryConnectionWhileTheControlApiStillAnswers() throws Exception {
        proxy = proxy(Service.S3);
        proxy.switchOn(Mode.DOWN, Duration.ofMinutes(1));

        assertThrows(IOException.class, () -> send("GET", "/bucket/a", ""));
        assertThrows(IOException.class, () -> send("PUT", "/bucket/a", "x"));
        assertTrue(control("GET", "/_faults").body().contains("\"mode\": \"down\""));
        assertEquals(List.of(), received);
    }

    @Test
    void aFaultWithSecondsSwitchesItselfOff() throws Exception {
        proxy = proxy(Service.S3);

        HttpResponse<String> switched = control("POST", "/_faults?mode=throttle&seconds=0.3");
        assertEquals(200, switched.statusCode());
        assertTrue(switched.body().contains("\"mode\": \"throttle\""), switched.body());
        assertEquals(503, send("PUT", "/bucket/a", "x").statusCode());

        Thread.sleep(400);
        assertTrue(control("GET", "/_faults").body().contains("\"mode\": \"off\""));
        assertEquals(200, send("PUT", "/bucket/a", "x").statusCode());
    }

    @Test
    void flakyFaultsTheShareItIsGiven() throws Exception {
        proxy = proxy(Service.S3);

        control("POST", "/_faults?mode=flaky&rate=1");
        assertEquals(500, send("PUT", "/bucket/a", "x").statusCode());
        control("POST", "/_faults?mode=flaky&rate=0");
        assertEquals(200, send("PUT", "/bucket/a", "x").statusCode());
    }

    @Test
    void theControlApiRefusesABadSwitchAndReportsCounts() throws Exception {
        proxy = proxy(Service.S3);
        send("PUT", "/bucket/counted", "x");
        control("POST", "/_faults?mode=outage");
        send("PUT", "/bucket/counted", "x");

        HttpResponse<String> meteor = control("POST", "/_faults?mode=meteor");
        assertEquals(400, meteor.statusCode());
        assertTrue(meteor.body().contains("mode is one of off, outage, throttle, flaky, down"), meteor.body());
        assertEquals(400, control("POST", "/_faults?mode=flaky&rate=2").statusCode());
        assertTrue(control("POST", "/_faults?mode=outage&seconds=soon")
                .body()
                .contains("seconds is a number, not 'soon'"));
        assertEquals(400, control("POST", "/_faults?mode=outage&seconds=0").statusCode());
        assertEquals(404, control("GET", "/_faults/nothing").statusCode());
        assertEquals(
                "{\"bucket/counted\": [2, 1]}\n",
                control("GET", "/_faults/puts").body());
        assertEquals(
                "{\"s3.PutObject\": 2}\n", control("GET", "/_faults/requests").body());
        assertTrue(control("POST", "/_faults?mode=off").body().contains("\"faulted\": 1"));
    }

    private FaultProxy proxy(Service service) throws IOException {
        return new FaultProxy(
                service,
                0,
                URI.create("http://127.0.0.1:" + localStack.getAddress().getPort()));
    }

    private HttpResponse<String> control(String method, String pathAndQuery) throws IOException, InterruptedException {
        return send(method, pathAndQuery, "");
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String body)
            throws IOException, InterruptedException {
        return send(method, pathAndQuery, body, Map.of());
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(proxy.endpoint().resolve(pathAndQuery))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body.isEmpty()
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
