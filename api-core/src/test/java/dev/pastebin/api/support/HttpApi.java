package dev.pastebin.api.support;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.ApplicationContextBuilder;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.function.aws.LambdaApplicationContextBuilder;
import io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The HTTP functions as API Gateway (HTTP API, payload 2.0) drives them: the real handler class
 * {@link APIGatewayV2HTTPEventFunction} fed with {@link APIGatewayV2HTTPEvent}s read from JSON fixtures (shaped
 * as {@code sam local generate-event apigateway http-api-proxy} makes them), and its
 * {@link APIGatewayV2HTTPResponse} read back the way API Gateway does (base64-decoded when flagged).
 * The context is built like Lambda builds it ({@link LambdaApplicationContextBuilder}) plus the {@code test}
 * environment and the properties a test class gives (its own queue, bucket, …).
 */
public final class HttpApi implements AutoCloseable {

    private final ApplicationContext context;
    private final APIGatewayV2HTTPEventFunction function;
    private final JsonMapper json;

    private HttpApi(ApplicationContext context) {
        this.context = context;
        this.function = new APIGatewayV2HTTPEventFunction(context);
        this.json = context.getBean(JsonMapper.class);
    }

    public static HttpApi start(Map<String, Object> properties) {
        ApplicationContextBuilder builder = ApplicationContext.builder();
        LambdaApplicationContextBuilder.setLambdaConfiguration(builder);
        return new HttpApi(
                builder.environments("test").properties(properties).build().start());
    }

    public ApplicationContext context() {
        return context;
    }

    /** A fixture from {@code src/test/resources/events/}, to adjust and send. */
    public Request fixture(String name) {
        String path = "/events/" + name + ".json";
        try (InputStream in = HttpApi.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new Request(json.readValue(in.readAllBytes(), APIGatewayV2HTTPEvent.class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response send(Request request) {
        return send(request, null);
    }

    /** As one Lambda invocation with {@code lambdaContext} (its request id, function name, deadline). */
    public Response send(Request request, @Nullable Context lambdaContext) {
        return Response.of(function.handleRequest(request.event, lambdaContext));
    }

    /**
     * The function's answer to {@code request} as Lambda hands it to API Gateway: the serialized
     * {@link APIGatewayV2HTTPResponse}, the payload whose size Lambda limits (6 MB for a synchronous invoke).
     */
    public byte[] responsePayload(Request request) {
        try {
            return json.writeValueAsBytes(function.handleRequest(request.event, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        function.close();
        if (context.isRunning()) {
            context.close();
        }
    }

    /** An event under construction; the setters keep its redundant fields (rawPath, http.path, …) consistent. */
    public static final class Request {
        private final APIGatewayV2HTTPEvent event;

        Request(APIGatewayV2HTTPEvent event) {
            this.event = event;
            if (event.getHeaders() == null) {
                event.setHeaders(new LinkedHashMap<>());
            } else {
                event.setHeaders(new LinkedHashMap<>(event.getHeaders()));
            }
        }

        public APIGatewayV2HTTPEvent event() {
            return event;
        }

        public Request method(String method) {
            event.getRequestContext().getHttp().setMethod(method);
            event.setRouteKey(method + " " + routePattern(event.getRawPath()));
            event.getRequestContext().setRouteKey(event.getRouteKey());
            return this;
        }

        public Request path(String path) {
            event.setRawPath(path);
            event.getRequestContext().getHttp().setPath(path);
            return method(event.getRequestContext().getHttp().getMethod());
        }

        /** API Gateway lower-cases header names in payload 2.0. */
        public Request header(String name, String value) {
            event.getHeaders().put(name.toLowerCase(Locale.ROOT), value);
            return this;
        }

        /** A query parameter, in both the raw query string and the parsed map, as API Gateway passes them. */
        public Request query(String name, String value) {
            Map<String, String> parameters = event.getQueryStringParameters() == null
                    ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(event.getQueryStringParameters());
            parameters.put(name, value);
            event.setQueryStringParameters(parameters);
            StringBuilder raw = new StringBuilder();
            parameters.forEach((k, v) -> raw.append(raw.isEmpty() ? "" : "&")
                    .append(encode(k))
                    .append('=')
                    .append(encode(v)));
            event.setRawQueryString(raw.toString());
            return this;
        }

        private static String encode(String s) {
            return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
        }

        public Request withoutHeader(String name) {
            event.getHeaders().remove(name.toLowerCase(Locale.ROOT));
            return this;
        }

        // Each body setter also sets Content-Length, as the client's request to API Gateway would have.

        /** A body as API Gateway passes a text body: a string, not base64. */
        public Request textBody(String body) {
            event.setBody(body);
            event.setIsBase64Encoded(false);
            return header("Content-Length", Integer.toString(body.getBytes(StandardCharsets.UTF_8).length));
        }

        /** A body as API Gateway passes bytes it does not treat as text: base64-encoded. */
        public Request binaryBody(byte[] body) {
            event.setBody(Base64.getEncoder().encodeToString(body));
            event.setIsBase64Encoded(true);
            return header("Content-Length", Integer.toString(body.length));
        }

        public Request noBody() {
            event.setBody(null);
            event.setIsBase64Encoded(false);
            return header("Content-Length", "0");
        }

        public Request jwtSubject(@Nullable String sub) {
            var jwt = new APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT();
            jwt.setClaims(sub == null ? Map.of() : Map.of("sub", sub));
            jwt.setScopes(List.of());
            var authorizer = new APIGatewayV2HTTPEvent.RequestContext.Authorizer();
            authorizer.setJwt(jwt);
            event.getRequestContext().setAuthorizer(authorizer);
            return this;
        }

        public Request requestId(String requestId) {
            event.getRequestContext().setRequestId(requestId);
            return this;
        }

        private static String routePattern(String rawPath) {
            if (rawPath == null || !rawPath.startsWith("/pastes/")) {
                return rawPath;
            }
            return rawPath.endsWith("/reveal") ? "/pastes/{shortCode}/reveal" : "/pastes/{shortCode}";
        }
    }

    /** What API Gateway makes of the function's response: status, headers, and the body bytes. */
    public record Response(int status, Map<String, String> headers, byte[] body, boolean base64Encoded) {

        static Response of(APIGatewayV2HTTPResponse response) {
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            if (response.getMultiValueHeaders() != null) {
                response.getMultiValueHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
            }
            if (response.getHeaders() != null) {
                headers.putAll(response.getHeaders());
            }
            String body = response.getBody();
            byte[] bytes;
            if (body == null) {
                bytes = new byte[0];
            } else if (response.getIsBase64Encoded()) {
                bytes = Base64.getMimeDecoder().decode(body);
            } else {
                bytes = body.getBytes(StandardCharsets.UTF_8);
            }
            return new Response(response.getStatusCode(), headers, bytes, response.getIsBase64Encoded());
        }

        @Nullable
        public String header(String name) {
            return headers.get(name);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
