package dev.pastebin.benchmarks.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * {@code POST /pastes} without a framework: the same work as the create function (validate, SHA-256,
 * INSERT IN_PROGRESS into {@code pastes}, SendMessage with the version-1 upload job, 201) with a plain
 * {@link RequestHandler}, raw JDBC on one connection and the SDK's SqsClient. Benchmark-only.
 */
public final class CreatePasteHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String INSERT = "INSERT INTO pastes (short_code, user_id, content_sha256, size_bytes, status)"
            + " VALUES (?, ?, ?, ?, 'IN_PROGRESS')";
    private static final String MARK_FAILED =
            "UPDATE pastes SET status = 'FAILED', failure_reason = ?, updated_at = now()"
                    + " WHERE short_code = ? AND status = 'IN_PROGRESS'";

    private final Resources resources;
    private final SecureRandom random = new SecureRandom();

    public CreatePasteHandler() {
        this.resources = new Resources(BaselineConfig.fromEnvironment(), true, false);
        if (resources.config().prime()) {
            // Validation only: an empty paste is refused with 400 before anything is stored or queued.
            var event = new APIGatewayV2HTTPEvent();
            event.setBody("");
            event.setIsBase64Encoded(false);
            event.setHeaders(java.util.Map.of("content-type", "text/plain"));
            handleRequest(event, null);
            if (resources.config().primeSuccessPath()) {
                insertRolledBack();
            }
        }
    }

    /** The project's create rehearsal, by hand: hash, code draw and INSERT, rolled back. */
    private void insertRolledBack() {
        byte[] bytes = "priming".getBytes(StandardCharsets.UTF_8);
        Connection connection = resources.connection();
        try {
            connection.setAutoCommit(false);
            try {
                insert(null, sha256Hex(bytes), bytes.length);
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        BaselineConfig config = resources.config();
        byte[] body;
        String raw = event.getBody() == null ? "" : event.getBody();
        try {
            body = event.getIsBase64Encoded() ? Base64.getDecoder().decode(raw) : raw.getBytes(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Http.error(400, "invalid_body", "body is not valid base64", context);
        }
        String contentType = Http.header(event, "content-type");
        String mediaType = contentType == null
                ? "text/plain"
                : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        String content;
        try {
            String text = decodeUtf8(body);
            if (mediaType.equals("application/json")) {
                content = Json.stringField(text, "content");
                if (content == null) {
                    return Http.error(400, "missing_content", "JSON body needs a string field \"content\"", context);
                }
            } else if (mediaType.equals("text/plain")) {
                content = text;
            } else {
                return Http.error(415, "unsupported_media_type", "send text/plain or application/json", context);
            }
        } catch (CharacterCodingException e) {
            return Http.error(400, "invalid_utf8", "content is not valid UTF-8", context);
        } catch (IllegalArgumentException e) {
            return Http.error(400, "invalid_json", "body is not valid JSON", context);
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0) {
            return Http.error(400, "empty_content", "content must not be empty", context);
        }
        if (bytes.length > config.maxContentBytes()) {
            return Http.error(
                    413, "content_too_large", "content exceeds " + config.maxContentBytes() + " bytes", context);
        }
        String sha256 = sha256Hex(bytes);
        String userId = userId(event);

        String code;
        try {
            code = insert(userId, sha256, bytes.length);
        } catch (SQLException e) {
            return Http.error(503, "unavailable", "storage unavailable, retry later", context, "Retry-After", "1");
        }
        String message = "{\"version\":1,\"shortCode\":" + Json.quote(code) + ",\"contentSha256\":" + Json.quote(sha256)
                + ",\"content\":\"" + Base64.getEncoder().encodeToString(bytes) + "\"}";
        try {
            resources
                    .sqs()
                    .sendMessage(SendMessageRequest.builder()
                            .queueUrl(config.queueUrl())
                            .messageBody(message)
                            .build());
        } catch (SdkException e) {
            markFailed(code, "enqueue failed: " + e.getClass().getSimpleName());
            return Http.error(503, "unavailable", "queue unavailable, retry later", context, "Retry-After", "1");
        }
        String url = "/pastes/" + code;
        return Http.json(
                201,
                "{\"shortCode\":" + Json.quote(code) + ",\"status\":\"IN_PROGRESS\",\"url\":" + Json.quote(url) + "}",
                "Location",
                url);
    }

    /** Inserts with a fresh code, retrying a primary-key collision (SQLState 23505) a few times. */
    private String insert(String userId, String sha256, int size) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            String code = nextCode();
            try (PreparedStatement st = resources.connection().prepareStatement(INSERT)) {
                st.setString(1, code);
                st.setString(2, userId);
                st.setString(3, sha256);
                st.setInt(4, size);
                st.executeUpdate();
                return code;
            } catch (SQLException e) {
                if (!"23505".equals(e.getSQLState()) || attempt >= 3) {
                    throw e;
                }
            }
        }
    }

    private void markFailed(String code, String reason) {
        try (PreparedStatement st = resources.connection().prepareStatement(MARK_FAILED)) {
            st.setString(1, reason);
            st.setString(2, code);
            st.executeUpdate();
        } catch (SQLException ignored) {
            // The row stays IN_PROGRESS; the sweeper's stuck-row reconciliation is the backstop.
        }
    }

    private String nextCode() {
        char[] code = new char[resources.config().shortCodeLength()];
        for (int i = 0; i < code.length; i++) {
            code[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(code);
    }

    private static String userId(APIGatewayV2HTTPEvent event) {
        var rc = event.getRequestContext();
        if (rc == null
                || rc.getAuthorizer() == null
                || rc.getAuthorizer().getJwt() == null
                || rc.getAuthorizer().getJwt().getClaims() == null) {
            return null;
        }
        return rc.getAuthorizer().getJwt().getClaims().get("sub");
    }

    private static String decodeUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
