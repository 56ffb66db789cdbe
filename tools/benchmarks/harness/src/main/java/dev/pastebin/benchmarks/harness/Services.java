package dev.pastebin.benchmarks.harness;

import dev.pastebin.testkit.RunBucket;
import dev.pastebin.testkit.RunDatabase;
import dev.pastebin.testkit.RunQueues;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The benchmark's own slice of the local PostgreSQL and LocalStack (the test kit's pieces): a database recreated
 * from core's migrations on every run, and a bucket and queues with a run-specific suffix, removed at the end.
 */
final class Services implements AutoCloseable {

    final String user;
    final String password;
    final String endpoint;
    final String runId;
    final String bucket;
    final SqsClient sqs;
    final S3Client s3;
    private final RunDatabase database;
    private final RunQueues queues;
    private final RunBucket pastes;
    private Connection db;

    Services(String host, int port, String user, String password, String database, String endpoint, String runId) {
        this.user = user;
        this.password = password;
        this.database = new RunDatabase(host, port, user, password, database);
        this.endpoint = endpoint;
        this.runId = runId;
        this.bucket = "pastebin-bench-" + runId;
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        this.sqs = SqsClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.US_EAST_1)
                .credentialsProvider(creds)
                .endpointOverride(URI.create(endpoint))
                .build();
        this.s3 = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.US_EAST_1)
                .credentialsProvider(creds)
                .endpointOverride(URI.create(endpoint))
                .forcePathStyle(true)
                .build();
        this.queues = new RunQueues(sqs);
        this.pastes = new RunBucket(s3, bucket);
    }

    String jdbcUrl() {
        return database.url();
    }

    /** Drops and recreates the benchmark database with core's migrations. */
    void resetDatabase() throws SQLException {
        database.recreate();
        db = database.connect();
    }

    Connection db() {
        return db;
    }

    void createBucket() {
        pastes.create();
    }

    String createQueue(String name) {
        return queues.create(
                name + "-" + runId,
                Map.of(
                        QueueAttributeName.VISIBILITY_TIMEOUT,
                        "180",
                        QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
                        "1048576"));
    }

    static String arnOf(String queueUrl) {
        return "arn:aws:sqs:us-east-1:000000000000:" + queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The upload job wire form, version 1 (core's UploadJobCodec). */
    static String uploadJob(String code, String sha, byte[] content) {
        return "{\"version\":1,\"shortCode\":\"" + code + "\",\"contentSha256\":\"" + sha + "\",\"content\":\""
                + Base64.getEncoder().encodeToString(content) + "\"}";
    }

    /** A PROCESSED paste with its object in the bucket, for the read path. */
    String seedProcessed(String code, byte[] content) throws SQLException {
        String key = "pastes/" + code;
        s3.putObject(
                p -> p.bucket(bucket).key(key).contentType("text/plain; charset=utf-8"),
                RequestBody.fromBytes(content));
        try (PreparedStatement st =
                db.prepareStatement("INSERT INTO pastes (short_code, content_sha256, size_bytes, status, s3_location)"
                        + " VALUES (?, ?, ?, 'PROCESSED', ?)")) {
            st.setString(1, code);
            st.setString(2, sha256Hex(content));
            st.setInt(3, content.length);
            st.setString(4, "s3://" + bucket + "/" + key);
            st.executeUpdate();
        }
        return code;
    }

    /** One IN_PROGRESS row; returns its upload-job message body. */
    String seedInProgress(String code, byte[] content, String marker) throws SQLException {
        String sha = sha256Hex(content);
        try (PreparedStatement st = db.prepareStatement(
                "INSERT INTO pastes (short_code, user_id, content_sha256, size_bytes)" + " VALUES (?, ?, ?, ?)")) {
            st.setString(1, code);
            st.setString(2, marker);
            st.setString(3, sha);
            st.setInt(4, content.length);
            st.executeUpdate();
        }
        return uploadJob(code, sha, content);
    }

    /** {@code n} IN_PROGRESS rows marked {@code marker} and their upload jobs on {@code queueUrl}. */
    void seedBacklog(int n, String marker, String queueUrl, byte[] content) throws Exception {
        String sha = sha256Hex(content);
        List<String> codes = new ArrayList<>(n);
        try (PreparedStatement st = db.prepareStatement(
                "INSERT INTO pastes (short_code, user_id, content_sha256, size_bytes)" + " VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < n; i++) {
                String code = newCode();
                codes.add(code);
                st.setString(1, code);
                st.setString(2, marker);
                st.setString(3, sha);
                st.setInt(4, content.length);
                st.addBatch();
                if (i % 500 == 499) {
                    st.executeBatch();
                }
            }
            st.executeBatch();
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < codes.size(); i += 10) {
                List<String> slice = codes.subList(i, Math.min(codes.size(), i + 10));
                futures.add(pool.submit(() -> {
                    List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
                    for (int k = 0; k < slice.size(); k++) {
                        entries.add(SendMessageBatchRequestEntry.builder()
                                .id("m" + k)
                                .messageBody(uploadJob(slice.get(k), sha, content))
                                .build());
                    }
                    var r = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
                    if (!r.failed().isEmpty()) {
                        throw new IllegalStateException("SendMessageBatch failed: " + r.failed());
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    int count(String marker, String status) throws SQLException {
        try (PreparedStatement st =
                db.prepareStatement("SELECT count(*) FROM pastes WHERE user_id = ? AND status = ?")) {
            st.setString(1, marker);
            st.setString(2, status);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Pastes of this run that have made at least {@code attempts} S3 attempts. */
    int countAttempted(String marker, int attempts) throws SQLException {
        try (PreparedStatement st =
                db.prepareStatement("SELECT count(*) FROM pastes WHERE user_id = ? AND upload_attempts >= ?")) {
            st.setString(1, marker);
            st.setInt(2, attempts);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    /** A well-formed short code (8 base62 characters, as the functions issue and validate them). */
    static String newCode() {
        String alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        char[] c = new char[8];
        for (int i = 0; i < c.length; i++) {
            c[i] = alphabet.charAt(RANDOM.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    static byte[] content(int bytes) {
        StringBuilder sb = new StringBuilder(bytes);
        String line = "The quick brown fox jumps over the lazy dog. Grüße, 東京 🐈\n";
        while (sb.toString().getBytes(StandardCharsets.UTF_8).length + line.getBytes(StandardCharsets.UTF_8).length
                <= bytes) {
            sb.append(line);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            queues.deleteAll();
        } catch (RuntimeException ignored) {
            // best effort: a leftover queue only costs LocalStack memory
        }
        try {
            pastes.remove();
        } catch (RuntimeException ignored) {
            // best effort
        }
        try {
            if (db != null) {
                db.close();
            }
        } catch (SQLException ignored) {
            // closing
        }
    }
}
