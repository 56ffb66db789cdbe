package dev.pastebin.benchmarks.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.UUID;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Only the I/O of a request, for the warm-latency split: the harness times these invocations and
 * subtracts them from the functions' to get "our own overhead". A stream handler, so no event
 * (de)serialization is counted. The payload is a line {@code create <content>} (INSERT + SendMessage of
 * that content) or {@code read <shortCode>} (SELECT + GetObject of that paste).
 */
public class IoProbeHandler implements RequestStreamHandler {

    private final Resources resources = new Resources(BaselineConfig.fromEnvironment(), true, true);

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String payload = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (payload.startsWith("create ")) {
                create(payload.substring(7).getBytes(StandardCharsets.UTF_8));
            } else if (payload.startsWith("read ")) {
                read(payload.substring(5).trim());
            } else {
                throw new IllegalArgumentException("payload must start with 'create ' or 'read '");
            }
        } catch (SQLException e) {
            throw new IOException(e);
        }
        output.write("\"ok\"".getBytes(StandardCharsets.UTF_8));
    }

    private void create(byte[] content) throws SQLException {
        String code = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        String sha = CreatePasteHandler.sha256Hex(content);
        try (PreparedStatement st = resources
                .connection()
                .prepareStatement(
                        "INSERT INTO pastes (short_code, content_sha256, size_bytes, status) VALUES (?, ?, ?, 'IN_PROGRESS')")) {
            st.setString(1, code);
            st.setString(2, sha);
            st.setInt(3, content.length);
            st.executeUpdate();
        }
        resources
                .sqs()
                .sendMessage(SendMessageRequest.builder()
                        .queueUrl(resources.config().queueUrl())
                        .messageBody("{\"version\":1,\"shortCode\":\"" + code + "\",\"contentSha256\":\"" + sha
                                + "\",\"content\":\"" + Base64.getEncoder().encodeToString(content) + "\"}")
                        .build());
    }

    private void read(String code) throws SQLException {
        String location;
        try (PreparedStatement st = resources
                .connection()
                .prepareStatement(
                        "SELECT content_sha256, size_bytes, s3_location, status, created_at FROM pastes WHERE short_code = ?")) {
            st.setString(1, code);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("probe paste " + code + " is missing");
                }
                location = rs.getString(3);
            }
        }
        int slash = location.indexOf('/', 5);
        resources
                .s3()
                .getObjectAsBytes(GetObjectRequest.builder()
                        .bucket(location.substring(5, slash))
                        .key(location.substring(slash + 1))
                        .build());
    }
}
