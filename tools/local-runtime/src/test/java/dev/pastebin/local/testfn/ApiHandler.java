package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test-only HTTP handler, run by the local runtime from target/test-classes. It answers with what it received
 * (as Lambda's Java runtime deserialised it) as "key=value" lines; some paths fail, crash, return binary or a
 * body of the size asked for.
 */
public class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String path = event.getRawPath();
        if (path.endsWith("/fail")) {
            throw new IllegalStateException("failure requested by " + path);
        }
        if (path.endsWith("/crash")) {
            Runtime.getRuntime().halt(3);
        }
        if (path.endsWith("/large")) {
            // a response payload of about the size the query asks for
            int bytes = Integer.parseInt(event.getQueryStringParameters().get("bytes"));
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(200)
                    .withHeaders(Map.of("content-type", "text/plain"))
                    .withBody("x".repeat(bytes))
                    .build();
        }
        if (path.endsWith("/binary")) {
            byte[] bytes = new byte[256];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) i;
            }
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(200)
                    .withHeaders(Map.of("content-type", "application/octet-stream"))
                    .withBody(Base64.getEncoder().encodeToString(bytes))
                    .withIsBase64Encoded(true)
                    .build();
        }
        Map<String, String> seen = new TreeMap<>();
        seen.put("routeKey", event.getRouteKey());
        seen.put("method", event.getRequestContext().getHttp().getMethod());
        seen.put("rawPath", path);
        seen.put("rawQueryString", event.getRawQueryString());
        seen.put("query", String.valueOf(new TreeMap<>(nullToEmpty(event.getQueryStringParameters()))));
        seen.put("pathParameters", String.valueOf(new TreeMap<>(nullToEmpty(event.getPathParameters()))));
        seen.put("cookies", String.valueOf(event.getCookies()));
        seen.put("x-multi", String.valueOf(nullToEmpty(event.getHeaders()).get("x-multi")));
        seen.put("isBase64Encoded", Boolean.toString(event.getIsBase64Encoded()));
        seen.put("body", String.valueOf(event.getBody()));
        seen.put("stage", event.getRequestContext().getStage());
        seen.put("functionName", context.getFunctionName());
        seen.put("remainingMs>0", Boolean.toString(context.getRemainingTimeInMillis() > 0));
        seen.put("awsRequestId", context.getAwsRequestId());
        // what a JWT authorizer passed on (requestContext.authorizer.jwt), "none" on an open route
        var authorizer = event.getRequestContext().getAuthorizer();
        boolean jwt = authorizer != null && authorizer.getJwt() != null;
        seen.put("jwt.sub", jwt ? authorizer.getJwt().getClaims().get("sub") : "none");
        seen.put("jwt.scopes", jwt ? String.valueOf(authorizer.getJwt().getScopes()) : "none");
        StringBuilder body = new StringBuilder();
        seen.forEach((k, v) -> body.append(k).append('=').append(v).append('\n'));
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(event.getRequestContext().getHttp().getMethod().equals("POST") ? 201 : 200)
                .withHeaders(Map.of("content-type", "text/plain; charset=utf-8", "x-handler", "api"))
                .withCookies(List.of("a=1; Path=/", "b=2"))
                .withBody(body.toString())
                .build();
    }

    private static Map<String, String> nullToEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
