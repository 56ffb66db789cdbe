package dev.pastebin.local.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pastebin.local.Json;
import dev.pastebin.local.template.FunctionDefinition;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * API Gateway HTTP API (payload format 2.0) translation: an HTTP request into the event API Gateway sends to
 * the integration, and the function's response back into HTTP, including the format's inference rules for a
 * response without {@code statusCode}.
 */
public final class HttpApiEvents {

    private static final DateTimeFormatter REQUEST_TIME = DateTimeFormatter.ofPattern(
                    "dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private HttpApiEvents() {}

    /** An incoming request; header names as received, in order, repeated names as separate entries. */
    record Request(
            String method,
            String rawPath,
            String rawQueryString,
            List<Map.Entry<String, String>> headers,
            byte[] body,
            String sourceIp,
            String protocol) {}

    /** An HTTP response: one value per header line (so Set-Cookie may repeat). */
    record Response(int statusCode, List<Map.Entry<String, String>> headers, byte[] body) {}

    /** What the stage knows about itself: ids used in requestContext. */
    public record Stage(String accountId, String apiId) {}

    static ObjectNode event(
            Request request,
            FunctionDefinition.HttpRoute route,
            Map<String, String> pathParameters,
            Stage stage,
            String requestId,
            Instant time) {
        ObjectNode event = Json.object();
        event.put("version", "2.0");
        event.put("routeKey", route.path().equals("$default") ? "$default" : route.routeKey());
        event.put("rawPath", request.rawPath());
        event.put("rawQueryString", request.rawQueryString() == null ? "" : request.rawQueryString());

        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        for (Map.Entry<String, String> h : request.headers()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.equals("cookie")) {
                for (String c : h.getValue().split(";")) {
                    if (!c.isBlank()) {
                        cookies.add(c.trim());
                    }
                }
            } else {
                headers.merge(name, h.getValue(), (a, b) -> a + "," + b);
            }
        }
        if (!cookies.isEmpty()) {
            ArrayNode array = event.putArray("cookies");
            cookies.forEach(array::add);
        }
        ObjectNode headerNode = event.putObject("headers");
        headers.forEach(headerNode::put);

        Map<String, String> query = queryParameters(request.rawQueryString());
        if (!query.isEmpty()) {
            ObjectNode q = event.putObject("queryStringParameters");
            query.forEach(q::put);
        }

        String host = headers.getOrDefault("host", "localhost").replaceFirst(":\\d+$", "");
        ObjectNode ctx = event.putObject("requestContext");
        ctx.put("accountId", stage.accountId());
        ctx.put("apiId", stage.apiId());
        ctx.put("domainName", host);
        ctx.put("domainPrefix", host.contains(".") ? host.substring(0, host.indexOf('.')) : host);
        ObjectNode http = ctx.putObject("http");
        http.put("method", request.method());
        http.put("path", request.rawPath());
        http.put("protocol", request.protocol());
        http.put("sourceIp", request.sourceIp());
        http.put("userAgent", headers.getOrDefault("user-agent", ""));
        ctx.put("requestId", requestId);
        ctx.put("routeKey", event.get("routeKey").asText());
        ctx.put("stage", "$default");
        ctx.put("time", REQUEST_TIME.format(time));
        ctx.put("timeEpoch", time.toEpochMilli());

        if (request.body().length > 0) {
            String text = isText(headers.get("content-type")) ? utf8OrNull(request.body()) : null;
            event.put("body", text != null ? text : Base64.getEncoder().encodeToString(request.body()));
            event.put("isBase64Encoded", text == null);
        } else {
            event.put("isBase64Encoded", false);
        }
        if (!pathParameters.isEmpty()) {
            ObjectNode p = event.putObject("pathParameters");
            pathParameters.forEach(p::put);
        }
        return event;
    }

    /**
     * Content types whose bodies pass as text (when they are valid UTF-8); everything else (or no content
     * type) arrives base64-encoded, as for an API without binary media types configured.
     */
    static boolean isText(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        return type.startsWith("text/")
                || type.equals("application/json")
                || type.endsWith("+json")
                || type.equals("application/xml")
                || type.endsWith("+xml")
                || type.equals("application/javascript")
                || type.equals("application/x-www-form-urlencoded");
    }

    /**
     * The body as text when it is valid UTF-8, else null. A decoder with replacement characters would alter
     * the bytes the client sent; base64 carries them unchanged, as API Gateway does for binary media.
     */
    static String utf8OrNull(byte[] body) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> params = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            params.merge(name, value, (a, b) -> a + "," + b);
        }
        return params;
    }

    static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /**
     * The headers API Gateway adds at its edge before invoking the integration: the client address, the
     * listener's port and protocol, and a trace id.
     */
    static List<Map.Entry<String, String>> withEdgeHeaders(
            List<Map.Entry<String, String>> headers, String sourceIp, int port, String traceId) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        String forwardedFor = sourceIp;
        for (Map.Entry<String, String> h : headers) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.equals("x-forwarded-for")) {
                forwardedFor = h.getValue() + ", " + sourceIp;
            } else if (!name.equals("x-forwarded-port")
                    && !name.equals("x-forwarded-proto")
                    && !name.equals("x-amzn-trace-id")) {
                out.add(h);
            }
        }
        out.add(Map.entry("x-amzn-trace-id", traceId));
        out.add(Map.entry("x-forwarded-for", forwardedFor));
        out.add(Map.entry("x-forwarded-port", Integer.toString(port)));
        out.add(Map.entry("x-forwarded-proto", "http"));
        return out;
    }

    /**
     * The HTTP response API Gateway makes of a function's payload. A JSON object with {@code statusCode} is a
     * structured response; any other valid JSON is the body of a 200 application/json response (a JSON
     * string as its text). Anything else is an integration failure (500).
     */
    static Response response(byte[] payload) {
        JsonNode json = Json.parseOrNull(payload);
        if (json == null) {
            return internalServerError();
        }
        if (!json.isObject() || !json.has("statusCode")) {
            byte[] body = json.isTextual() ? json.asText().getBytes(StandardCharsets.UTF_8) : payload;
            return new Response(200, List.of(Map.entry("content-type", "application/json")), body);
        }
        if (!json.get("statusCode").canConvertToInt()) {
            return internalServerError();
        }
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        json.path("headers")
                .properties()
                .forEach(h -> headers.add(Map.entry(h.getKey(), h.getValue().asText())));
        // multiValueHeaders belongs to payload 1.0; API Gateway ignores it in a 2.0 response (Micronaut
        // fills both, so honouring it would duplicate every header).
        json.path("cookies").forEach(c -> headers.add(Map.entry("set-cookie", c.asText())));
        byte[] body = new byte[0];
        JsonNode b = json.get("body");
        if (b != null && !b.isNull()) {
            String text = b.isTextual() ? b.asText() : b.toString();
            body = json.path("isBase64Encoded").asBoolean(false)
                    ? Base64.getDecoder().decode(text)
                    : text.getBytes(StandardCharsets.UTF_8);
        }
        return new Response(json.get("statusCode").asInt(), headers, body);
    }

    static Response internalServerError() {
        return new Response(
                500,
                List.of(Map.entry("content-type", "application/json")),
                "{\"message\":\"Internal Server Error\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** A request API Gateway cannot read (broken framing, control characters in a header). */
    static Response badRequest() {
        return new Response(
                400,
                List.of(Map.entry("content-type", "application/json")),
                "{\"message\":\"Bad Request\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** A request line and headers beyond API Gateway's quota. */
    static Response headersTooLarge() {
        return new Response(
                431,
                List.of(Map.entry("content-type", "application/json")),
                "{\"message\":\"Request Header Fields Too Large\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** A request a JWT authorizer refuses: no token, or an invalid one; {@code challenge} is its www-authenticate. */
    static Response unauthorized(String challenge) {
        return new Response(
                401,
                List.of(Map.entry("content-type", "application/json"), Map.entry("www-authenticate", challenge)),
                "{\"message\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** A valid token without any of the route's authorization scopes. */
    static Response forbidden(String challenge) {
        return new Response(
                403,
                List.of(Map.entry("content-type", "application/json"), Map.entry("www-authenticate", challenge)),
                "{\"message\":\"Forbidden\"}".getBytes(StandardCharsets.UTF_8));
    }

    /**
     * What a JWT authorizer passes on: {@code requestContext.authorizer.jwt} with the token's {@code claims}
     * and {@code scopes} (null on a route without authorization scopes), the shape of aws-lambda-java-events'
     * {@code APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT}.
     */
    static void putJwtAuthorizer(ObjectNode event, JwtAuthorizer.Authorized authorized) {
        ObjectNode jwt = ((ObjectNode) event.get("requestContext"))
                .putObject("authorizer")
                .putObject("jwt");
        ObjectNode claims = jwt.putObject("claims");
        authorized.claims().forEach(claims::put);
        if (authorized.scopes() == null) {
            jwt.putNull("scopes");
        } else {
            ArrayNode scopes = jwt.putArray("scopes");
            authorized.scopes().forEach(scopes::add);
        }
    }

    static Response notFound() {
        return new Response(
                404,
                List.of(Map.entry("content-type", "application/json")),
                "{\"message\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8));
    }
}
