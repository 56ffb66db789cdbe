package dev.pastebin.benchmarks.herd;

import dev.pastebin.core.paste.ShortCodes;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Creates pastes the way the create function does, without its HTTP front: the IN_PROGRESS row, then the upload
 * job in core's wire form (UploadJobCodec, version 1) on the run's queue. Thousands a second instead of the
 * handful the local API manages on a busy machine, so that a herd of thousands can be held within minutes.
 */
final class JobSender {

    private JobSender() {}

    static List<String> send(Connection db, String queueName, String sqsEndpoint, int pastes) throws SQLException {
        SecureRandom random = new SecureRandom();
        Set<String> codes = new LinkedHashSet<>();
        while (codes.size() < pastes) {
            char[] code = new char[ShortCodes.LEGACY_LENGTH];
            for (int i = 0; i < code.length; i++) {
                code[i] = ShortCodes.ALPHABET.charAt(random.nextInt(ShortCodes.ALPHABET.length()));
            }
            codes.add(new String(code));
        }
        Map<String, String> env = System.getenv();
        try (SqsClient sqs = SqsClient.builder()
                        .httpClient(UrlConnectionHttpClient.create())
                        .endpointOverride(URI.create(sqsEndpoint))
                        .region(Region.of(env.getOrDefault("AWS_REGION", "us-east-1")))
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                                env.getOrDefault("AWS_ACCESS_KEY_ID", "test"),
                                env.getOrDefault("AWS_SECRET_ACCESS_KEY", "test"))))
                        .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD))
                        .build();
                PreparedStatement insert = db.prepareStatement(
                        "INSERT INTO pastes (short_code, user_id, content_sha256, size_bytes) VALUES (?, 'herd', ?, ?)")) {
            String queueUrl = sqs.getQueueUrl(b -> b.queueName(queueName)).queueUrl();
            List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
            for (String code : codes) {
                byte[] content = HerdRun.content(code).getBytes(StandardCharsets.UTF_8);
                String sha256 = sha256(content);
                insert.setString(1, code);
                insert.setString(2, sha256);
                insert.setInt(3, content.length);
                insert.executeUpdate(); // the row first, as create: a job never arrives before its row
                batch.add(SendMessageBatchRequestEntry.builder()
                        .id(code)
                        .messageBody("{\"version\":1,\"shortCode\":\"" + code + "\",\"contentSha256\":\"" + sha256
                                + "\",\"content\":\"" + Base64.getEncoder().encodeToString(content) + "\"}")
                        .build());
                if (batch.size() == 10) {
                    sendBatch(sqs, queueUrl, batch);
                }
            }
            if (!batch.isEmpty()) {
                sendBatch(sqs, queueUrl, batch);
            }
        }
        return List.copyOf(codes);
    }

    private static void sendBatch(SqsClient sqs, String queueUrl, List<SendMessageBatchRequestEntry> batch) {
        var response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(batch));
        if (!response.failed().isEmpty()) {
            throw new IllegalStateException("SendMessageBatch refused " + response.failed());
        }
        batch.clear();
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
