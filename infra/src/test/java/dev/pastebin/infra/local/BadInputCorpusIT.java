package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.support.OwnDatabase;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.FunctionDefinition;
import dev.pastebin.local.template.SamTemplate;
import io.micronaut.context.ApplicationContext;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The bad-input corpus: malformed, oversized, lying and hostile requests through the local API (the real
 * template's routes, the real function artifacts, real PostgreSQL and LocalStack). Each case asserts its
 * status, the JSON error body (the functions' {@code code}/{@code message}/{@code requestId}, or API
 * Gateway's own {@code {"message": …}} when no route matches) and that nothing changed: no row created, no
 * message on the queues, no object added to the bucket. No case may answer 5xx.
 *
 * <p>"Every method on every route" is derived from the template: a route added later is covered without
 * editing this test.
 */
@RealServices
class BadInputCorpusIT {

    /** The default pastebin.paste.max-content-bytes. */
    private static final int LIMIT = PasteProperties.MAX_CONTENT_BYTES_CAP;

    private static final String UNKNOWN_CODE = "Zz9Zz9Zz";
    private static final List<String> METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PURGE");

    private static LocalRuntimeProcess runtime;
    private static ApplicationContext aws;
    private static Connection database;
    /** A PROCESSED paste, for the conditional-request cases. */
    private static String storedCode;

    private static String storedEtag;

    /** What a case expects: a function's error, API Gateway's own answer, or a non-error status. */
    sealed interface Expected {}

    record FunctionError(int status, String code) implements Expected {}

    record GatewayError(int status) implements Expected {}

    record NotAnError(int status) implements Expected {}

    /**
     * A hostile value that reaches a function: its normal answer or a clear refusal, never a 5xx, with the route's
     * error body (JSON, or the command-line clients' line) when it is an error.
     */
    record ClearAnswer() implements Expected {}

    /** A refused form of a command-line client: one text/plain line, which those clients print. */
    record PlainError(int status) implements Expected {}

    /**
     * A request the HTTP server itself cannot parse (request line, Content-Length, header syntax, URI): the
     * JDK's server answers 400 with its own short text/html body and closes the connection, before any route
     * is chosen, as the edge in front of API Gateway does; no function ever sees it, so there is no JSON error
     * body to assert, only the status and that nothing changed.
     */
    record HttpServerRejected(int status) implements Expected {}

    record Case(String name, byte[] request, boolean halfClose, Expected expected) {}

    @BeforeAll
    static void start() throws Exception {
        // A database of its own: "nothing changed" counts every row of the table, which another test class
        // running beside this one would change.
        String databaseUrl = OwnDatabase.Create.migrated("bad_input");
        runtime = LocalRuntimeProcess.start(
                "bad-input",
                Map.of(
                        "Parameters",
                        Map.of("DATASOURCES_DEFAULT_URL", databaseUrl),
                        // the template gives the upload function its own URL (with its timeouts), which wins
                        "UploadPasteFunction",
                        Map.of("DATASOURCES_DEFAULT_URL", databaseUrl + "?connectTimeout=2&socketTimeout=3")),
                List.of());
        aws = ApplicationContext.run();
        database = DriverManager.getConnection(
                databaseUrl,
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"));
        storeOnePaste();
    }

    @AfterAll
    static void stop() throws Exception {
        if (database != null) {
            database.close();
        }
        if (aws != null) {
            aws.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    /** Creates a paste through the API and waits until it is stored: the conditional-request cases read it. */
    private static void storeOnePaste() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        var created = TestSupport.sendHonouringRetryAfter(
                http,
                HttpRequest.newBuilder(runtime.uri("/pastes"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("stored for the corpus"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        String location = created.headers().firstValue("Location").orElseThrow();
        storedCode = location.substring(location.lastIndexOf('/') + 1);
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        HttpResponse<String> read;
        do {
            Thread.sleep(250);
            read = http.send(
                    HttpRequest.newBuilder(runtime.uri(location)).build(), HttpResponse.BodyHandlers.ofString());
        } while (read.statusCode() == 202 && System.nanoTime() < deadline);
        assertEquals(200, read.statusCode(), read.body() + "\n" + runtime.output());
        storedEtag = read.headers().firstValue("ETag").orElseThrow();
    }

    @Test
    void theCorpusHasTwoHundredCasesAndMostReachAFunction() {
        List<Case> cases = cases();
        long beforeAnyFunction = cases.stream()
                .filter(c -> c.expected() instanceof GatewayError || c.expected() instanceof HttpServerRejected)
                .count();
        System.out.printf(
                "BAD INPUT CORPUS %d cases: %d answered by a function, %d before any function runs "
                        + "(API Gateway's 404 for a method without a route, the HTTP server's 400)%n",
                cases.size(), cases.size() - beforeAnyFunction, beforeAnyFunction);
        // docs/testing.md, "What `make test` runs", states these figures
        assertTrue(cases.size() >= 200, "only " + cases.size() + " cases");
        assertTrue(
                cases.size() - beforeAnyFunction >= 120,
                "only " + (cases.size() - beforeAnyFunction) + " reach a function");
        Set<String> names = new LinkedHashSet<>();
        cases.forEach(c -> assertTrue(names.add(c.name()), "two cases named " + c.name()));
    }

    @TestFactory
    Stream<DynamicTest> everyBadInputIsAnsweredWithAClearErrorAndChangesNothing() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(Case c) throws Exception {
        State before = State.now();
        RawHttp.Response response = RawHttp.exchange(runtime.port, c.request(), c.halfClose());
        String method = new String(c.request(), StandardCharsets.ISO_8859_1).split(" ", 2)[0];
        String shown = response.status() + " " + response.headers() + " " + response.text();

        assertTrue(response.status() < 500, "5xx: " + shown);
        switch (c.expected()) {
            case FunctionError e -> {
                assertEquals(e.status(), response.status(), shown);
                if (!method.equals("HEAD")) {
                    Map<String, Object> body = json(response);
                    assertEquals(e.code(), body.get("code"), shown);
                    assertTrue(body.get("message") instanceof String m && !m.isBlank(), shown);
                    assertTrue(body.get("requestId") instanceof String id && !id.isBlank(), shown);
                }
            }
            case GatewayError e -> {
                assertEquals(e.status(), response.status(), shown);
                if (!method.equals("HEAD")) {
                    Map<String, Object> body = json(response);
                    assertTrue(body.get("message") instanceof String m && !m.isBlank(), shown);
                }
            }
            case NotAnError e -> assertEquals(e.status(), response.status(), shown);
            case ClearAnswer e -> {
                // a refusal in the route's own convention: the JSON error, or the command-line clients' one line
                String type = String.valueOf(response.header("content-type"));
                if (response.status() >= 400 && !method.equals("HEAD")) {
                    assertTrue(
                            type.startsWith("text/plain")
                                    ? !response.text().isBlank()
                                    : json(response).get("message") instanceof String m && !m.isBlank(),
                            shown);
                }
            }
            case PlainError e -> {
                assertEquals(e.status(), response.status(), shown);
                assertEquals("text/plain; charset=utf-8", response.header("content-type"), shown);
                assertTrue(
                        response.text().endsWith("\n")
                                && response.text().indexOf('\n')
                                        == response.text().length() - 1
                                && response.text().length() > 1,
                        "one line: " + shown);
            }
            case HttpServerRejected e -> assertEquals(e.status(), response.status(), shown);
        }
        State after = State.now();
        assertEquals(0, after.rowsCreatedSince(before), "a row was created: " + shown);
        assertEquals(0, after.messages(), "a message was queued: " + shown);
        assertEquals(before.objects(), after.objects(), "the bucket changed: " + shown);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(RawHttp.Response response) throws Exception {
        String type = response.header("content-type");
        assertNotNull(type, "no Content-Type: " + response.text());
        assertTrue(type.startsWith("application/json"), "not JSON (" + type + "): " + response.text());
        return Json.MAPPER.readValue(response.body(), Map.class);
    }

    /** Rows, queued messages and stored objects: what no bad input may change. */
    private record State(Timestamp at, long messages, int objects) {

        static State now() throws Exception {
            Timestamp at;
            try (var s = database.createStatement();
                    ResultSet rs = s.executeQuery("SELECT now()")) {
                rs.next();
                at = rs.getTimestamp(1);
            }
            SqsClient sqs = aws.getBean(SqsClient.class);
            long messages = 0;
            for (String url : List.of(runtime.queue.queueUrl(), runtime.queue.deadLetterQueueUrl())) {
                Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(url)
                                .attributeNames(
                                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                        .attributes();
                for (String count : attributes.values()) {
                    messages += Long.parseLong(count);
                }
            }
            int objects = aws.getBean(S3Client.class)
                    .listObjectsV2(b -> b.bucket(runtime.bucket))
                    .keyCount();
            return new State(at, messages, objects);
        }

        long rowsCreatedSince(State before) throws Exception {
            try (var q = database.prepareStatement("SELECT count(*) FROM pastes WHERE created_at >= ?")) {
                q.setTimestamp(1, before.at());
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // The corpus
    // ------------------------------------------------------------------------------------------------

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        createCases(cases);
        framingCases(cases);
        shortCodeCases(cases);
        conditionalCases(cases);
        hasteCases(cases);
        hostileValueCases(cases);
        everyMethodOnEveryRoute(cases);
        return cases;
    }

    private static void createCases(List<Case> cases) {
        cases.add(post("empty text body", "text/plain", new byte[0], fn(400, "EMPTY_CONTENT")));
        cases.add(post(
                "JSON with empty content", "application/json", utf8("{\"content\":\"\"}"), fn(400, "EMPTY_CONTENT")));
        cases.add(post("empty JSON body", "application/json", new byte[0], fn(400, "EMPTY_CONTENT")));
        cases.add(post("JSON object without content", "application/json", utf8("{}"), fn(400, "MISSING_CONTENT")));
        cases.add(
                post("JSON content null", "application/json", utf8("{\"content\":null}"), fn(400, "MISSING_CONTENT")));
        cases.add(post(
                "JSON content a number", "application/json", utf8("{\"content\":123}"), fn(400, "MISSING_CONTENT")));
        cases.add(post(
                "JSON content an array",
                "application/json",
                utf8("{\"content\":[\"a\"]}"),
                fn(400, "MISSING_CONTENT")));
        cases.add(post(
                "JSON content an object",
                "application/json",
                utf8("{\"content\":{\"a\":1}}"),
                fn(400, "MISSING_CONTENT")));
        cases.add(post(
                "JSON key in another case",
                "application/json",
                utf8("{\"Content\":\"x\"}"),
                fn(400, "MISSING_CONTENT")));
        cases.add(post("JSON array", "application/json", utf8("[\"content\"]"), fn(400, "INVALID_JSON")));
        cases.add(post("JSON string", "application/json", utf8("\"content\""), fn(400, "INVALID_JSON")));
        cases.add(post("JSON null", "application/json", utf8("null"), fn(400, "INVALID_JSON")));
        cases.add(post("truncated JSON", "application/json", utf8("{\"content\":\"abc"), fn(400, "INVALID_JSON")));
        cases.add(post(
                "JSON with trailing garbage",
                "application/json",
                utf8("{\"content\":\"a\"} x"),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "JSON with a raw control character",
                "application/json",
                utf8("{\"content\":\"a\u0001b\"}"),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "JSON with a raw NUL byte",
                "application/json",
                utf8("{\"content\":\"a\u0000b\"}"),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "JSON with duplicate content keys",
                "application/json",
                utf8("{\"content\":\"a\",\"content\":\"b\"}"),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "deeply nested JSON arrays",
                "application/json",
                utf8("{\"content\":\"a\",\"x\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}"),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "deeply nested JSON objects",
                "application/json",
                utf8("{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000)),
                fn(400, "INVALID_JSON")));
        cases.add(post(
                "JSON with a lone high surrogate",
                "application/json",
                utf8("{\"content\":\"a\\ud800b\"}"),
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "JSON with a lone low surrogate",
                "application/json",
                utf8("{\"content\":\"\\udc00\"}"),
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "JSON with reversed surrogates",
                "application/json",
                utf8("{\"content\":\"\\ude00\\ud83d\"}"),
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "JSON body not UTF-8",
                "application/json",
                bytes("{\"content\":\"", new byte[] {(byte) 0xC3, 0x28}, "\"}"),
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text with an invalid UTF-8 byte",
                "text/plain",
                new byte[] {'a', (byte) 0xFF, 'b'},
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text with an overlong NUL encoding",
                "text/plain",
                new byte[] {'a', (byte) 0xC0, (byte) 0x80},
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text with a UTF-8 encoded surrogate",
                "text/plain",
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text ending in a truncated sequence",
                "text/plain",
                new byte[] {'a', (byte) 0xE2, (byte) 0x82},
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text of NUL bytes and an invalid byte",
                "text/plain",
                new byte[] {0, 0, 0, (byte) 0xFE},
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "text one byte over the limit",
                "text/plain",
                utf8("a".repeat(LIMIT + 1)),
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(post(
                "text under the limit in characters, over in bytes",
                "text/plain",
                utf8("€".repeat(LIMIT / 3 + 1)),
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(post(
                "text of four-byte characters over the limit",
                "text/plain",
                utf8("😀".repeat(LIMIT / 4) + "a"),
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(post(
                "text just under the limit but not UTF-8",
                "text/plain",
                bytes("a".repeat(LIMIT - 1), new byte[] {(byte) 0xFF}, ""),
                fn(400, "INVALID_UTF8")));
        cases.add(post(
                "JSON content one byte over the limit",
                "application/json",
                utf8("{\"content\":\"" + "a".repeat(LIMIT + 1) + "\"}"),
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(post(
                "JSON escapes under the limit in characters, over in bytes",
                "application/json",
                utf8("{\"content\":\"" + "\\u20ac".repeat(LIMIT / 3 + 1) + "\"}"),
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(post("XML", "application/xml", utf8("<p>x</p>"), fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        // the forms of command-line clients (docs/using.md, "Use it from your terminal"): refused as one plain line
        cases.add(post(
                "form-encoded without a content field",
                "application/x-www-form-urlencoded",
                utf8("a=b"),
                new PlainError(400)));
        cases.add(post(
                "form-encoded, a broken escape",
                "application/x-www-form-urlencoded",
                utf8("content=%zz"),
                new PlainError(400)));
        cases.add(post(
                "form-encoded, not UTF-8",
                "application/x-www-form-urlencoded",
                utf8("content=%ff%fe"),
                new PlainError(400)));
        cases.add(post(
                "form-encoded, empty content",
                "application/x-www-form-urlencoded",
                utf8("content="),
                new PlainError(400)));
        cases.add(post(
                "multipart, a part without a name",
                "multipart/form-data; boundary=x",
                utf8("--x\r\n\r\na\r\n--x--"),
                new PlainError(400)));
        cases.add(post(
                "multipart without a boundary",
                "multipart/form-data",
                utf8("--x\r\n\r\na\r\n--x--"),
                new PlainError(400)));
        cases.add(post(
                "multipart, another boundary",
                "multipart/form-data; boundary=y",
                utf8("--x\r\n\r\na\r\n--x--"),
                new PlainError(400)));
        cases.add(post(
                "multipart, cut inside a part",
                "multipart/form-data; boundary=x",
                utf8("--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc"),
                new PlainError(400)));
        cases.add(post(
                "multipart, a bad expires field",
                "multipart/form-data; boundary=x",
                utf8(
                        "--x\r\nContent-Disposition: "
                                + "form-data; name=\"file\"\r\n\r\nabc\r\n--x\r\nContent-Disposition: form-data; name=\"expires\"\r\n\r\n1e9\r\n--x--\r\n"),
                new PlainError(400)));
        multipartLimitCases(cases);
        // rustypaste's duration, its terms matched where the last ended: a long run of spaces costs its length
        cases.add(new Case(
                "POST: an expire header of 9,000 spaces between terms",
                request(
                        "POST",
                        "/pastes",
                        List.of(
                                "Content-Type: multipart/form-data; boundary=x",
                                "expire: 1m" + " ".repeat(9_000) + "x"),
                        part("x", "file", "", "abc")),
                false,
                new PlainError(400)));
        cases.add(post("no Content-Type", null, utf8("hello"), fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(post(
                "Latin-1 charset", "text/plain; charset=iso-8859-1", utf8("hello"), fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(post(
                "UTF-16 charset",
                "text/plain; charset=utf-16",
                new byte[] {(byte) 0xFE, (byte) 0xFF, 0, 'a'},
                fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(post(
                "unknown charset",
                "text/plain; charset=x-no-such-charset",
                utf8("hello"),
                fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(post(
                "JSON in a Latin-1 charset",
                "application/json; charset=latin1",
                utf8("{\"content\":\"x\"}"),
                fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(post("garbage Content-Type", ";;;", utf8("hello"), fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(new Case(
                "create accepting only images",
                request("POST", "/pastes", List.of("Content-Type: text/plain", "Accept: image/png"), utf8("hello")),
                false,
                fn(406, "NOT_ACCEPTABLE")));
    }

    /**
     * Multipart shapes whose cost grew with their size or overflowed the stack (docs/using.md, "Use it from your
     * terminal": a boundary of 1 to 70 characters of RFC 2046's set, 8,192 bytes of headers a part, 100 parts),
     * on both routes that read a form; each is a 400, or the 413 of a body too large to hold a paste.
     */
    private static void multipartLimitCases(List<Case> cases) {
        String longBoundary = "-".repeat(8_000);
        for (String route : List.of("/pastes", "/documents")) {
            boolean haste = route.equals("/documents");
            String field = haste ? "data" : "file";
            Expected refused = haste ? fn(400, "BAD_REQUEST") : new PlainError(400);
            Expected empty = haste ? fn(400, "EMPTY_CONTENT") : new PlainError(400);
            String tooLong = "-".repeat(71);
            cases.add(form(route, "a boundary of 71 characters", tooLong, part(tooLong, field, "", "abc"), refused));
            cases.add(form(route, "a boundary outside RFC 2046's set", "a@b", part("a@b", field, "", "abc"), refused));
            // near misses of the delimiter, the worst case of a search that costs body × boundary
            cases.add(form(
                    route,
                    "an 8,000-character boundary over near misses",
                    longBoundary,
                    utf8((longBoundary + "-x").repeat(95)),
                    refused));
            cases.add(form(
                    route,
                    "a part's headers over 8 KiB",
                    "x",
                    part("x", field, "\r\nX-Padding: " + "p".repeat(8_200), "abc"),
                    refused));
            cases.add(form(
                    route,
                    "101 parts",
                    "x",
                    bytes(
                            ("--x\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nv\r\n").repeat(100),
                            part("x", field, "", "abc"),
                            ""),
                    refused));
            // the file name is read whole and dropped; the empty part is what is refused
            cases.add(form(
                    route,
                    "a 5,000-character file name on an empty part",
                    "x",
                    part("x", field, "; filename=\"" + "n".repeat(5_000) + "\"", ""),
                    empty));
            cases.add(form(
                    route,
                    "a file name of 3,000 escapes on an empty part",
                    "x",
                    part("x", field, "; filename=\"" + "\\\"".repeat(3_000) + "\"", ""),
                    empty));
        }
        // the haste route checks the size before parsing too
        cases.add(form(
                "/documents",
                "4 MB of near misses of an 8,000-character boundary",
                longBoundary,
                utf8((longBoundary + "-x").repeat(500)),
                fn(413, "CONTENT_TOO_LARGE")));
    }

    /** A form of one part named {@code name}, with more of its Content-Disposition and then its content. */
    private static byte[] part(String boundary, String name, String moreDisposition, String content) {
        return utf8("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"" + moreDisposition
                + "\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n");
    }

    private static Case form(String route, String name, String boundary, byte[] body, Expected expected) {
        return new Case(
                "POST " + route + ": multipart, " + name,
                request(
                        "POST",
                        route,
                        List.of("Content-Type: multipart/form-data; boundary=\"" + boundary + "\""),
                        body),
                false,
                expected);
    }

    /** Requests whose HTTP framing is wrong or dishonest. */
    private static void framingCases(List<Case> cases) {
        cases.add(new Case(
                "Content-Length 0 with a body",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\nhello"),
                false,
                fn(400, "EMPTY_CONTENT")));
        cases.add(new Case(
                "Content-Length cutting a UTF-8 sequence",
                bytes(
                        "POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                                + "Content-Length: 2\r\nConnection: close\r\n\r\na",
                        new byte[] {(byte) 0xE2, (byte) 0x82, (byte) 0xAC},
                        ""),
                false,
                fn(400, "INVALID_UTF8")));
        cases.add(new Case(
                "Content-Length longer than the body",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 100\r\nConnection: close\r\n\r\nhello"),
                true,
                gw(400)));
        cases.add(new Case(
                "Content-Length not a number",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: five\r\nConnection: close\r\n\r\nhello"),
                true,
                server(400)));
        cases.add(new Case(
                "negative Content-Length",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: -5\r\nConnection: close\r\n\r\nhello"),
                true,
                server(400)));
        cases.add(new Case(
                "two different Content-Lengths",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 5\r\nContent-Length: 3\r\nConnection: close\r\n\r\nhello"),
                true,
                server(400)));
        cases.add(new Case(
                "chunked empty body",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n"),
                false,
                fn(400, "EMPTY_CONTENT")));
        cases.add(new Case(
                "chunked body over the limit",
                chunked("text/plain", utf8("b".repeat(LIMIT + 10))),
                false,
                fn(413, "CONTENT_TOO_LARGE")));
        cases.add(new Case(
                "chunked body not UTF-8",
                chunked("text/plain", new byte[] {'o', 'k', (byte) 0xC0}),
                false,
                fn(400, "INVALID_UTF8")));
        cases.add(new Case(
                "chunk size not hex",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"),
                true,
                gw(400)));
        cases.add(new Case(
                "chunked body cut short",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n10\r\nhel"),
                true,
                gw(400)));
        cases.add(new Case(
                "header line without a colon",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type text/plain\r\n"
                        + "Content-Length: 5\r\nConnection: close\r\n\r\nhello"),
                true,
                server(400)));
        cases.add(new Case(
                "header value with a NUL byte",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/pl\u0000ain\r\n"
                        + "Content-Length: 5\r\nConnection: close\r\n\r\nhello"),
                true,
                gw(400)));
        cases.add(new Case(
                "oversized header",
                raw("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nX-Big: " + "a".repeat(64 * 1024)
                        + "\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"),
                true,
                gw(431)));
        StringBuilder many = new StringBuilder("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n");
        // API Gateway's quota counts the request line and the header values (10,240 bytes), not the headers:
        // 500 headers of 24-byte values are over it; 500 one-byte values would not be
        for (int i = 0; i < 500; i++) {
            many.append("X-H").append(i).append(": ").append("v".repeat(24)).append("\r\n");
        }
        cases.add(new Case(
                "five hundred headers over the quota",
                raw(many + "Content-Length: 5\r\nConnection: close\r\n\r\nhello"),
                true,
                gw(431)));
        cases.add(new Case("garbage request line", raw("HELLO\r\nConnection: close\r\n\r\n"), true, server(400)));
        cases.add(new Case(
                "request line without a version",
                raw("GET /pastes/" + UNKNOWN_CODE + "\r\nConnection: close\r\n\r\n"),
                true,
                server(400)));
        cases.add(new Case(
                "unknown HTTP version, read as HTTP/1.1",
                raw("GET /pastes/" + UNKNOWN_CODE + " HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n"),
                true,
                fn(404, "PASTE_NOT_FOUND")));
    }

    private static void shortCodeCases(List<Case> cases) {
        Map<String, String> malformed = new LinkedHashMap<>();
        malformed.put("too short", "abc");
        malformed.put("one too short", "Zz9Zz9Z");
        malformed.put("one longer than an old code", "Zz9Zz9Zz9");
        malformed.put("one shorter than a new code", "Zz9Zz9Zz9Z");
        malformed.put("one longer than a new code", "Zz9Zz9Zz9Zz9");
        malformed.put("33 characters", "a".repeat(33));
        malformed.put("encoded traversal", "..%2F..%2Fetc%2Fpasswd");
        malformed.put("encoded dot-dot", "%2e%2e");
        malformed.put("encoded NUL", "Zz9Zz9Z%00");
        malformed.put("encoded space", "Zz9Z%20z9Z");
        malformed.put("Cyrillic look-alike", "Zz9Zz9Z%D0%90");
        malformed.put("Greek look-alike", "%CE%91%CE%91%CE%91%CE%91%CE%91%CE%91%CE%91%CE%91");
        malformed.put("fullwidth digits", "%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95%EF%BC%96%EF%BC%97%EF%BC%98");
        malformed.put("combining accent", "Zz9Zz9Z%CC%81");
        malformed.put("punctuation", "Zz9Zz9Z!");
        malformed.put("SQL", "'%20OR%201=1--");
        for (var m : malformed.entrySet()) {
            cases.add(new Case(
                    "GET short code: " + m.getKey(),
                    request("GET", "/pastes/" + m.getValue(), List.of(), null),
                    false,
                    fn(400, "MALFORMED_SHORT_CODE")));
        }
        cases.add(new Case(
                "HEAD short code: too short",
                request("HEAD", "/pastes/abc", List.of(), null),
                false,
                fn(400, "MALFORMED_SHORT_CODE")));
        cases.add(new Case(
                "GET short code: malformed percent-encoding",
                request("GET", "/pastes/%zz", List.of(), null),
                false,
                server(400)));
        cases.add(new Case(
                "GET query: malformed percent-encoding",
                request("GET", "/pastes/" + UNKNOWN_CODE + "?x=%zz", List.of(), null),
                false,
                server(400)));
        cases.add(new Case(
                "GET short code: percent-encoded letters",
                request("GET", "/pastes/%5Az9Zz9Zz", List.of(), null),
                false,
                fn(404, "PASTE_NOT_FOUND")));
        cases.add(new Case(
                "GET path: dot segments",
                request("GET", "/pastes/../pastes/" + UNKNOWN_CODE, List.of(), null),
                false,
                gw(404)));
        cases.add(new Case(
                "GET path: trailing slash",
                request("GET", "/pastes/" + UNKNOWN_CODE + "/", List.of(), null),
                false,
                gw(404)));
        cases.add(new Case("GET path: empty short code", request("GET", "/pastes/", List.of(), null), false, gw(404)));
        cases.add(new Case(
                "GET path: double slash", request("GET", "/pastes//" + UNKNOWN_CODE, List.of(), null), false, gw(404)));
        cases.add(new Case(
                "GET accepting only images",
                request("GET", "/pastes/" + UNKNOWN_CODE, List.of("Accept: image/png"), null),
                false,
                fn(406, "NOT_ACCEPTABLE")));
    }

    /**
     * The haste protocol's routes (docs/design.md, "Haste protocol"): its create refuses as the API does, in
     * JSON; its reads judge the key (a file extension is ignored); the root's other names are no paste.
     */
    private static void hasteCases(List<Case> cases) {
        cases.add(haste("empty body", "text/plain", new byte[0], fn(400, "EMPTY_CONTENT")));
        cases.add(haste("empty body without a Content-Type", null, new byte[0], fn(400, "EMPTY_CONTENT")));
        cases.add(haste(
                "not UTF-8, curl's default type",
                "application/x-www-form-urlencoded",
                new byte[] {'a', (byte) 0xFF},
                fn(400, "INVALID_UTF8")));
        cases.add(haste("one byte over the limit", null, utf8("a".repeat(LIMIT + 1)), fn(413, "CONTENT_TOO_LARGE")));
        cases.add(haste(
                "Latin-1 charset", "text/plain; charset=iso-8859-1", utf8("hello"), fn(415, "UNSUPPORTED_MEDIA_TYPE")));
        cases.add(haste(
                "multipart without a data field",
                "multipart/form-data; boundary=x",
                utf8("--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--x--\r\n"),
                fn(400, "MISSING_CONTENT")));
        cases.add(haste(
                "multipart cut inside a part",
                "multipart/form-data; boundary=x",
                utf8("--x\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\nabc"),
                fn(400, "BAD_REQUEST")));
        cases.add(new Case(
                "POST /documents accepting only images",
                request("POST", "/documents", List.of("Content-Type: text/plain", "Accept: image/png"), utf8("hello")),
                false,
                fn(406, "NOT_ACCEPTABLE")));
        for (String route : List.of("/documents/", "/raw/")) {
            cases.add(new Case(
                    "GET " + route + "key: too short",
                    request("GET", route + "abc", List.of(), null),
                    false,
                    fn(400, "MALFORMED_SHORT_CODE")));
            cases.add(new Case(
                    "GET " + route + "key: only an extension",
                    request("GET", route + ".py", List.of(), null),
                    false,
                    fn(400, "MALFORMED_SHORT_CODE")));
            cases.add(new Case(
                    "GET " + route + "key: encoded traversal",
                    request("GET", route + "..%2F..%2Fetc%2Fpasswd", List.of(), null),
                    false,
                    fn(400, "MALFORMED_SHORT_CODE")));
            cases.add(new Case(
                    "GET " + route + "key: unknown, with an extension",
                    request("GET", route + UNKNOWN_CODE + ".py", List.of(), null),
                    false,
                    fn(404, "PASTE_NOT_FOUND")));
            cases.add(new Case("GET " + route + "key: empty", request("GET", route, List.of(), null), false, gw(404)));
        }
        cases.add(new Case(
                "GET /documents/key accepting only images",
                request("GET", "/documents/" + UNKNOWN_CODE, List.of("Accept: image/png"), null),
                false,
                fn(406, "NOT_ACCEPTABLE")));
        for (String name :
                List.of("favicon.ico", "robots.txt", "pastes", "documents", "raw", "p", "%00", "Zz9Zz9Z%D0%90")) {
            cases.add(new Case(
                    "GET /" + name + ": no paste at the root",
                    request("GET", "/" + name, List.of(), null),
                    false,
                    fn(404, "NOT_FOUND")));
        }
        cases.add(new Case(
                "GET /key: unknown, with an extension",
                request("GET", "/" + UNKNOWN_CODE + ".js", List.of(), null),
                false,
                fn(404, "PASTE_NOT_FOUND")));
        cases.add(new Case(
                "GET /key accepting only images",
                request("GET", "/" + UNKNOWN_CODE, List.of("Accept: image/png"), null),
                false,
                fn(406, "NOT_ACCEPTABLE")));
    }

    private static Case haste(String name, String contentType, byte[] body, Expected expected) {
        List<String> headers = contentType == null ? List.of() : List.of("Content-Type: " + contentType);
        return new Case("POST /documents: " + name, request("POST", "/documents", headers, body), false, expected);
    }

    /** If-None-Match on a stored paste: lists, weak tags, junk. Never a change, never 5xx. */
    private static void conditionalCases(List<Case> cases) {
        Map<String, Integer> conditions = new LinkedHashMap<>();
        conditions.put("weak tag", 304);
        conditions.put("list with the tag last", 304);
        conditions.put("star", 304);
        conditions.put("other tags only", 200);
        conditions.put("unquoted tag", 200);
        conditions.put("empty list items", 200);
        conditions.put("a very long list", 200);
        for (var c : conditions.entrySet()) {
            cases.add(new Case(
                    "If-None-Match: " + c.getKey(),
                    request("GET", "/pastes/" + storedCode, List.of("If-None-Match: " + condition(c.getKey())), null),
                    false,
                    new NotAnError(c.getValue())));
        }
    }

    /** The If-None-Match value of each conditional case (the stored paste's tag is known by then). */
    private static String condition(String name) {
        return switch (name) {
            case "weak tag" -> "W/" + storedEtag;
            case "list with the tag last" -> "\"a\", W/\"b\", " + storedEtag;
            case "star" -> "*";
            case "other tags only" -> "\"a\", W/\"b\"";
            case "unquoted tag" -> storedEtag.replace("\"", "");
            case "empty list items" -> ", , ,";
            case "a very long list" -> "\"x\", ".repeat(1_000) + "\"y\"";
            default -> throw new IllegalArgumentException(name);
        };
    }

    /**
     * Every header and query parameter a function reads, given a hostile value (one character repeated: no comma,
     * slash, quote or equals sign to stop a pattern early, what made a backtracking one quadratic) of 9 KiB, which
     * fits API Gateway's 10,240-byte quota of request line and headers and so reaches the function, and of 10 KiB and
     * 100 KiB, which do not (431 before any function runs). Each is answered as the function answers (its normal
     * answer or a clear 4xx, never a 5xx) and changes nothing. Their cost is bounded by construction (RE2/J or a
     * scanner, infra's LinearInputRuleTest, and caps on what is read), not timed here.
     */
    private static void hostileValueCases(List<Case> cases) {
        // where each header is read: the route, its method and a body the route refuses, so nothing is created
        Map<String, String[]> headers = new LinkedHashMap<>();
        headers.put("Accept", new String[] {"GET", "/pb/?jsonld=paste"});
        headers.put("X-Requested-With", new String[] {"GET", "/pb/?" + UNKNOWN_CODE + "xyz"});
        headers.put("Content-Type", new String[] {"POST", "/pastes"});
        headers.put("Idempotency-Key", new String[] {"POST", "/pastes"});
        headers.put("expire", new String[] {"POST", "/"});
        headers.put("X-Forwarded-For", new String[] {"POST", "/pastes/" + UNKNOWN_CODE + "/report"});
        headers.put("X-Forwarded-Host", new String[] {"POST", "/pastes"});
        headers.put("X-Forwarded-Proto", new String[] {"POST", "/pastes"});
        headers.put("X-Origin-Verify", new String[] {"GET", "/pastes/" + UNKNOWN_CODE});
        headers.put("If-None-Match", new String[] {"GET", "/pastes/" + UNKNOWN_CODE});
        headers.put("Paste-Delete-Token", new String[] {"DELETE", "/pastes/" + UNKNOWN_CODE});
        // each query parameter, on the route that reads it
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("expiresIn", "/pastes?expiresIn=");
        parameters.put("readOnce", "/pastes?readOnce=");
        parameters.put("language", "/pastes?language=");
        parameters.put("fileName", "/pastes?fileName=");
        parameters.put("jsonld", "/pb/?jsonld=");
        parameters.put("pasteid", "/pb/?pasteid=");
        parameters.put("deletetoken", "/pb/?pasteid=" + UNKNOWN_CODE + "xyz&deletetoken=");
        for (int size : new int[] {9 * 1024, 10 * 1024, 100 * 1024}) {
            String value = "a".repeat(size);
            Expected expected = size < 10 * 1024 ? new ClearAnswer() : gw(431);
            String label = size / 1024 + " KiB";
            headers.forEach((header, where) -> {
                List<String> sent = new ArrayList<>(List.of(header + ": " + value));
                byte[] body = null;
                if (where[0].equals("POST")) {
                    // an empty JSON body: refused whatever the header does, so nothing is stored
                    if (!header.equals("Content-Type")) {
                        sent.add("Content-Type: application/json");
                    }
                    body = new byte[0];
                }
                cases.add(new Case(
                        "hostile " + label + " " + header + ": " + where[0] + " " + where[1],
                        request(where[0], where[1], sent, body),
                        false,
                        expected));
            });
            parameters.forEach((parameter, target) -> cases.add(new Case(
                    "hostile " + label + " query " + parameter,
                    request(
                            target.startsWith("/pastes") ? "POST" : "GET",
                            target + value,
                            target.startsWith("/pastes") ? List.of("Content-Type: application/json") : List.of(),
                            target.startsWith("/pastes") ? new byte[0] : null),
                    false,
                    expected)));
        }
    }

    /**
     * What each routed method answers on its path without a body or headers (the code in the path, {@value
     * #UNKNOWN_CODE}, is well formed but names no paste). A route added to the template fails the corpus until it
     * is given its line here.
     */
    private static final Map<String, Expected> ROUTED_WITHOUT_A_BODY = Map.ofEntries(
            Map.entry("POST /pastes", fn(415, "UNSUPPORTED_MEDIA_TYPE")),
            Map.entry("POST /", fn(415, "UNSUPPORTED_MEDIA_TYPE")),
            Map.entry("POST /documents", fn(400, "EMPTY_CONTENT")),
            Map.entry("GET /pastes", fn(404, "NOT_FOUND")),
            Map.entry("GET /documents", fn(404, "NOT_FOUND")),
            Map.entry("GET /pastes/{shortCode}", fn(404, "PASTE_NOT_FOUND")),
            Map.entry("HEAD /pastes/{shortCode}", fn(404, "PASTE_NOT_FOUND")),
            Map.entry("DELETE /pastes/{shortCode}", fn(401, "DELETE_TOKEN_REQUIRED")),
            Map.entry("POST /pastes/{shortCode}/reveal", fn(404, "PASTE_NOT_FOUND")),
            Map.entry("POST /pastes/{shortCode}/report", fn(415, "UNSUPPORTED_MEDIA_TYPE")),
            Map.entry("GET /.well-known/security.txt", new NotAnError(200)),
            Map.entry("GET /", new NotAnError(200)),
            Map.entry("GET /p/{shortCode}", new NotAnError(200)),
            Map.entry("GET /assets/{file}", fn(404, "NOT_FOUND")),
            Map.entry("GET /documents/{key}", fn(404, "PASTE_NOT_FOUND")),
            Map.entry("GET /raw/{key}", fn(404, "PASTE_NOT_FOUND")),
            Map.entry("GET /{shortCode}", fn(404, "PASTE_NOT_FOUND")),
            // the owner's routes (docs/using.md, "Your own pastes"): nobody's credential, nobody's pastes
            Map.entry("GET /me/pastes", fn(401, "API_KEY_REQUIRED")),
            Map.entry("DELETE /me/pastes/{shortCode}", fn(401, "API_KEY_REQUIRED")),
            // curl -T's upload (PUT /{shortCode}, the variable a file's name) takes any one-segment path; without a
            // Content-Length there is no file to declare
            Map.entry("PUT /{shortCode}", fn(400, "INVALID_FILES")),
            Map.entry("PUT /pastes", fn(400, "INVALID_FILES")),
            Map.entry("PUT /documents", fn(400, "INVALID_FILES")),
            Map.entry("PUT /pb", fn(400, "INVALID_FILES")),
            // PrivateBin's protocol: a page for a request that is no JSON API call, and a refusal as PrivateBin
            // answers it (HTTP 200, {"status":1,"message":"Invalid data."}) for a body that is no paste
            Map.entry("GET /pb/", new NotAnError(200)),
            Map.entry("GET /pb", new NotAnError(200)),
            Map.entry("POST /pb/", new NotAnError(200)),
            Map.entry("POST /pb", new NotAnError(200)));

    /**
     * Every method on every path of the template's HTTP routes. A method that no route takes on that path (another
     * path's pattern may: GET /pastes is GET /{shortCode}'s) is API Gateway's 404; a routed method without a body must not
     * fail or change anything either.
     */
    private static void everyMethodOnEveryRoute(List<Case> cases) {
        SamTemplate template = SamTemplate.read(TestSupport.repositoryRoot().resolve("infra/template.yaml"));
        Map<String, Set<String>> methodsByPath = new LinkedHashMap<>();
        for (FunctionDefinition function : template.functions()) {
            for (FunctionDefinition.HttpRoute route : function.httpRoutes()) {
                methodsByPath
                        .computeIfAbsent(route.path(), p -> new LinkedHashSet<>())
                        .add(route.method());
            }
        }
        methodsByPath.forEach((path, ignored) -> {
            String concrete = path.replaceAll("\\{[^}/]+\\+?}", UNKNOWN_CODE);
            for (String method : METHODS) {
                String name = method + " " + path;
                boolean routed = methodsByPath.entrySet().stream()
                        .anyMatch(route -> (route.getValue().contains(method)
                                        || route.getValue().contains("ANY"))
                                && matches(route.getKey(), concrete));
                if (routed) {
                    Expected expected = ROUTED_WITHOUT_A_BODY.get(name);
                    assertNotNull(
                            expected,
                            "a new route: say what " + name + " answers without a body, in ROUTED_WITHOUT_A_BODY");
                    cases.add(new Case(
                            name + " (routed, no body)", request(method, concrete, List.of(), null), false, expected));
                } else {
                    cases.add(
                            new Case(name + " (no route)", request(method, concrete, List.of(), null), false, gw(404)));
                }
            }
        });
    }

    /** Whether a route's path pattern takes a concrete path: literal segments equal, a {param} any non-empty one. */
    private static boolean matches(String pattern, String path) {
        String[] expected = pattern.substring(1).split("/", -1);
        String[] actual = path.substring(1).split("/", -1);
        if (expected.length != actual.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            boolean parameter = expected[i].startsWith("{") && expected[i].endsWith("}");
            if (parameter ? actual[i].isEmpty() : !expected[i].equals(actual[i])) {
                return false;
            }
        }
        return true;
    }

    // request builders -------------------------------------------------------------------------------

    private static Case post(String name, String contentType, byte[] body, Expected expected) {
        List<String> headers = contentType == null ? List.of() : List.of("Content-Type: " + contentType);
        return new Case("POST: " + name, request("POST", "/pastes", headers, body), false, expected);
    }

    private static byte[] request(String method, String target, List<String> headers, byte[] body) {
        StringBuilder head =
                new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        headers.forEach(h -> head.append(h).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        return bytes(head.toString(), body == null ? new byte[0] : body, "");
    }

    private static byte[] chunked(String contentType, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("POST /pastes HTTP/1.1\r\nHost: x\r\nContent-Type: " + contentType
                + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"));
        for (int from = 0; from < body.length; from += 8192) {
            int size = Math.min(8192, body.length - from);
            out.writeBytes(utf8(Integer.toHexString(size) + "\r\n"));
            out.write(body, from, size);
            out.writeBytes(utf8("\r\n"));
        }
        out.writeBytes(utf8("0\r\n\r\n"));
        return out.toByteArray();
    }

    private static byte[] raw(String request) {
        return request.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String head, byte[] middle, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static FunctionError fn(int status, String code) {
        return new FunctionError(status, code);
    }

    private static HttpServerRejected server(int status) {
        return new HttpServerRejected(status);
    }

    private static GatewayError gw(int status) {
        return new GatewayError(status);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
