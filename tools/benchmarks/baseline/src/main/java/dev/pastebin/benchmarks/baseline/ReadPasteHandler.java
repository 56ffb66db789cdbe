package dev.pastebin.benchmarks.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * {@code GET /pastes/{shortCode}} without a framework: the same work as the read function (validate the
 * code, one SELECT, GetObject for a PROCESSED paste, 200/202/304/404) with raw JDBC and the SDK's S3Client.
 * Benchmark-only.
 */
public final class ReadPasteHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    private static final String SELECT =
            "SELECT content_sha256, size_bytes, s3_location, status, created_at" + " FROM pastes WHERE short_code = ?";

    private final Resources resources;

    public ReadPasteHandler() {
        this.resources = new Resources(BaselineConfig.fromEnvironment(), false, true);
        if (resources.config().prime()) {
            // A read of a well-formed code no paste has: the SELECT path and the 404 answer.
            var event = new APIGatewayV2HTTPEvent();
            event.setRawPath("/pastes/" + "0".repeat(resources.config().shortCodeLength()));
            event.setPathParameters(
                    java.util.Map.of("shortCode", "0".repeat(resources.config().shortCodeLength())));
            event.setHeaders(java.util.Map.of("accept", "text/plain"));
            handleRequest(event, null);
        }
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String code = shortCode(event);
        if (!wellFormed(code)) {
            return Http.error(400, "invalid_short_code", "malformed short code", context);
        }
        String sha256;
        int size;
        String location;
        String status;
        String createdAt;
        try (PreparedStatement st = resources.connection().prepareStatement(SELECT)) {
            st.setString(1, code);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Http.error(404, "not_found", "no such paste", context);
                }
                sha256 = rs.getString(1);
                size = rs.getInt(2);
                location = rs.getString(3);
                status = rs.getString(4);
                createdAt = rs.getString(5);
            }
        } catch (SQLException e) {
            return Http.error(503, "unavailable", "storage unavailable, retry later", context, "Retry-After", "1");
        }
        switch (status) {
            case "IN_PROGRESS":
                return Http.json(
                        202,
                        "{\"shortCode\":" + Json.quote(code) + ",\"status\":\"IN_PROGRESS\"}",
                        "Retry-After",
                        "1",
                        "Cache-Control",
                        "no-store");
            case "PROCESSED":
                break;
            default:
                return Http.error(404, "not_found", "no such paste", context);
        }
        String etag = "\"" + sha256 + "\"";
        if (etag.equals(Http.header(event, "if-none-match"))) {
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(304)
                    .withHeaders(Map.of("ETag", etag, "Cache-Control", "public, max-age=31536000, immutable"))
                    .build();
        }
        String content;
        try {
            // s3://bucket/key
            int slash = location.indexOf('/', 5);
            var request = GetObjectRequest.builder()
                    .bucket(location.substring(5, slash))
                    .key(location.substring(slash + 1))
                    .build();
            content = resources.s3().getObjectAsBytes(request).asString(StandardCharsets.UTF_8);
        } catch (NoSuchKeyException e) {
            System.err.println("inconsistency: PROCESSED paste " + code + " has no object");
            return Http.error(500, "internal_error", "paste content missing", context);
        } catch (SdkException e) {
            return Http.error(
                    503, "unavailable", "content store unavailable, retry later", context, "Retry-After", "1");
        }
        Map<String, String> headers = new HashMap<>();
        headers.put("ETag", etag);
        headers.put("Cache-Control", "public, max-age=31536000, immutable");
        headers.put("X-Content-Type-Options", "nosniff");
        String accept = Http.header(event, "accept");
        String body;
        if (accept != null && accept.contains("application/json")) {
            headers.put("Content-Type", "application/json");
            body = "{\"shortCode\":" + Json.quote(code) + ",\"status\":\"PROCESSED\",\"sizeBytes\":" + size
                    + ",\"contentSha256\":" + Json.quote(sha256) + ",\"createdAt\":" + Json.quote(createdAt)
                    + ",\"content\":" + Json.quote(content) + "}";
        } else {
            headers.put("Content-Type", "text/plain; charset=utf-8");
            body = content;
        }
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withHeaders(headers)
                .withBody(body)
                .withIsBase64Encoded(false)
                .build();
    }

    private static String shortCode(APIGatewayV2HTTPEvent event) {
        if (event.getPathParameters() != null && event.getPathParameters().get("shortCode") != null) {
            return event.getPathParameters().get("shortCode");
        }
        String path = event.getRawPath();
        return path == null ? null : path.substring(path.lastIndexOf('/') + 1);
    }

    private boolean wellFormed(String code) {
        if (code == null || code.length() != resources.config().shortCodeLength()) {
            return false;
        }
        for (int i = 0; i < code.length(); i++) {
            if (CreatePasteHandler.ALPHABET.indexOf(code.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }
}
