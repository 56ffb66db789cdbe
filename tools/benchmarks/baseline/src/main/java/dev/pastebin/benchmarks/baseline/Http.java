package dev.pastebin.benchmarks.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.HashMap;
import java.util.Map;

/** Small helpers for API Gateway v2 events and answers, written by hand as a framework-free function would. */
final class Http {

    private Http() {}

    static String header(APIGatewayV2HTTPEvent event, String name) {
        Map<String, String> headers = event.getHeaders();
        if (headers == null) {
            return null;
        }
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    static APIGatewayV2HTTPResponse json(int status, String body, String... headerPairs) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Content-Type", "application/json");
        for (int i = 0; i + 1 < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(status)
                .withHeaders(headers)
                .withBody(body)
                .withIsBase64Encoded(false)
                .build();
    }

    static APIGatewayV2HTTPResponse error(
            int status, String code, String message, Context context, String... headerPairs) {
        String requestId = context == null ? "" : context.getAwsRequestId();
        return json(
                status,
                "{\"code\":" + Json.quote(code) + ",\"message\":" + Json.quote(message) + ",\"requestId\":"
                        + Json.quote(requestId) + "}",
                headerPairs);
    }
}
