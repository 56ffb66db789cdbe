package dev.pastebin.local.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.FunctionDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpApiEventsTest {

    private static final HttpApiEvents.Stage STAGE = new HttpApiEvents.Stage("000000000000", "local");
    private static final FunctionDefinition.HttpRoute READ =
            new FunctionDefinition.HttpRoute("ReadPaste", "GET", "/pastes/{shortCode}");

    private static HttpApiEvents.Request request(String method, String contentType, byte[] body) {
        var headers = new java.util.ArrayList<Map.Entry<String, String>>(List.of(
                Map.entry("Host", "localhost:3000"),
                Map.entry("User-Agent", "curl/8.0"),
                Map.entry("Accept", "application/json"),
                Map.entry("X-Repeated", "value1"),
                Map.entry("x-repeated", "value2"),
                Map.entry("Cookie", "cookie1=a; cookie2=b")));
        if (contentType != null) {
            headers.add(Map.entry("Content-Type", contentType));
        }
        return new HttpApiEvents.Request(
                method, "/pastes/Ab3dE5gH", "view=json&x=1&x=2", headers, body, "127.0.0.1", "HTTP/1.1");
    }

    @Test
    void buildsTheEventApiGatewaySendsInTheShapeSamGeneratesIt() throws Exception {
        JsonNode expected =
                Json.MAPPER.readTree(Files.readString(Path.of("src/test/resources/fixture/http-api-event.json")));
        JsonNode event = HttpApiEvents.event(
                request("GET", null, new byte[0]),
                READ,
                Map.of("shortCode", "Ab3dE5gH"),
                STAGE,
                "JKJaXmPLvHcESHA=",
                Instant.parse("2020-03-12T19:03:58Z"));
        assertEquals(expected, event);
    }

    @Test
    void textBodiesPassAsTheyAreOthersBase64() {
        byte[] text = "héllo\r\n\t😀".getBytes(StandardCharsets.UTF_8);
        JsonNode json = HttpApiEvents.event(
                request("POST", "text/plain; charset=utf-8", text), READ, Map.of(), STAGE, "id", Instant.now());
        assertEquals("héllo\r\n\t😀", json.get("body").asText());
        assertFalse(json.get("isBase64Encoded").asBoolean());
        byte[] binary = {0, 1, (byte) 0xff};
        JsonNode b = HttpApiEvents.event(
                request("POST", "application/octet-stream", binary), READ, Map.of(), STAGE, "id", Instant.now());
        assertEquals(Base64.getEncoder().encodeToString(binary), b.get("body").asText());
        assertEquals(true, b.get("isBase64Encoded").asBoolean());
        JsonNode none = HttpApiEvents.event(request("POST", null, text), READ, Map.of(), STAGE, "id", Instant.now());
        assertEquals(true, none.get("isBase64Encoded").asBoolean(), "no content type: binary");
    }

    @Test
    void aTextBodyThatIsNotValidUtf8IsPassedBase64EncodedWithItsBytesUnchanged() {
        byte[] invalid = {(byte) 0xff, (byte) 0xfe, ' ', 'b', 'a', 'd'};
        JsonNode json =
                HttpApiEvents.event(request("POST", "text/plain", invalid), READ, Map.of(), STAGE, "id", Instant.now());
        assertEquals(true, json.get("isBase64Encoded").asBoolean());
        assertArrayEquals(invalid, Base64.getDecoder().decode(json.get("body").asText()));
        byte[] truncated = {'a', (byte) 0xc3};
        JsonNode cut = HttpApiEvents.event(
                request("POST", "application/json", truncated), READ, Map.of(), STAGE, "id", Instant.now());
        assertArrayEquals(truncated, Base64.getDecoder().decode(cut.get("body").asText()), "a truncated sequence");
    }

    @Test
    void structuredResponse() {
        var r = HttpApiEvents.response(("{\"statusCode\":202,\"headers\":{\"retry-after\":\"1\"},"
                        + "\"multiValueHeaders\":{\"x-m\":[\"a\",\"b\"]},\"cookies\":[\"s=1\"],\"body\":\"{\\\"status\\\":\\\"IN_PROGRESS\\\"}\"}")
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(202, r.statusCode());
        // multiValueHeaders is a payload 1.0 field: API Gateway ignores it in a 2.0 response.
        assertEquals(List.of(Map.entry("retry-after", "1"), Map.entry("set-cookie", "s=1")), r.headers());
        assertEquals("{\"status\":\"IN_PROGRESS\"}", new String(r.body(), StandardCharsets.UTF_8));
    }

    @Test
    void base64ResponseBodyIsDecoded() {
        var r = HttpApiEvents.response(
                "{\"statusCode\":200,\"isBase64Encoded\":true,\"body\":\"AAH/\"}".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(new byte[] {0, 1, (byte) 0xff}, r.body());
    }

    @Test
    void aResponseWithoutStatusCodeIsInferredAs200Json() {
        var object = HttpApiEvents.response("{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(200, object.statusCode());
        assertEquals(List.of(Map.entry("content-type", "application/json")), object.headers());
        assertEquals("{\"hello\":\"world\"}", new String(object.body(), StandardCharsets.UTF_8));
        var string = HttpApiEvents.response("\"Hello from Lambda!\"".getBytes(StandardCharsets.UTF_8));
        assertEquals("Hello from Lambda!", new String(string.body(), StandardCharsets.UTF_8));
    }

    @Test
    void anInvalidResponseIsAnInternalServerError() {
        assertEquals(
                500,
                HttpApiEvents.response("not json".getBytes(StandardCharsets.UTF_8))
                        .statusCode());
        assertEquals(
                500,
                HttpApiEvents.response("{\"statusCode\":\"x\"}".getBytes(StandardCharsets.UTF_8))
                        .statusCode());
    }

    @Test
    void edgeHeadersAreAddedAsApiGatewayAddsThem() {
        var headers = HttpApiEvents.withEdgeHeaders(
                List.of(
                        Map.entry("Host", "localhost:3000"),
                        Map.entry("X-Forwarded-For", "10.0.0.1"),
                        Map.entry("X-Forwarded-Proto", "https")),
                "127.0.0.1",
                3000,
                "Root=1-5e1b4151-5ac6c58f5b5daa6532e4f5a3");
        assertEquals(
                List.of(
                        Map.entry("Host", "localhost:3000"),
                        Map.entry("x-amzn-trace-id", "Root=1-5e1b4151-5ac6c58f5b5daa6532e4f5a3"),
                        Map.entry("x-forwarded-for", "10.0.0.1, 127.0.0.1"),
                        Map.entry("x-forwarded-port", "3000"),
                        Map.entry("x-forwarded-proto", "http")),
                headers);
    }

    @Test
    void queryParametersAreDecodedAndRepeatedOnesCommaJoined() {
        assertEquals(Map.of("a", "1,2", "b", "x y", "c", ""), HttpApiEvents.queryParameters("a=1&a=2&b=x%20y&c"));
    }

    /** Any Content-Type a client sends, however malformed, is judged, never a failure of the runtime. */
    @ParameterizedTest
    @ValueSource(strings = {";;;", ";", "", " ", ";charset=utf-8", "/"})
    void malformedContentTypesAreNotText(String contentType) {
        assertFalse(HttpApiEvents.isText(contentType), contentType);
    }

    @Test
    void textTypesAreTextWhateverTheirParameters() {
        assertTrue(HttpApiEvents.isText("Text/Plain;;charset=utf-8"));
        assertTrue(HttpApiEvents.isText("application/json ; charset=utf-8"));
    }
}
