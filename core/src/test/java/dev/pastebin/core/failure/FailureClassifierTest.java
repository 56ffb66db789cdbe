package dev.pastebin.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.pastebin.core.breaker.CircuitOpenException;
import dev.pastebin.core.storage.ContentRemovalException;
import io.micronaut.data.connection.exceptions.ConnectionException;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.data.exceptions.DataAccessResourceFailureException;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** The classifier over real SDK, JDBC and JDK exceptions, built the way the SDK and drivers build them. */
class FailureClassifierTest {

    private final FailureClassifier classifier = new FailureClassifier();

    static S3Exception s3(int status, String code, String message) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(message)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .serviceName("S3")
                        .errorCode(code)
                        .errorMessage(message)
                        .build())
                .build();
    }

    /** What {@link ContentRemovalException} is for: S3's per-key errors of a DeleteObjects answer. */
    static ContentRemovalException refused(String code) {
        return new ContentRemovalException(
                "S3 refused to delete 1 of 1 objects",
                List.of(S3Error.builder()
                        .key("pastes/aB3xYz12")
                        .code(code)
                        .message(code)
                        .build()));
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // S3 answered
                arguments(s3(503, "SlowDown", "Please reduce your request rate."), ErrorClass.THROTTLING, 503),
                arguments(
                        s3(503, "ServiceUnavailable", "Service is unable to handle request."),
                        ErrorClass.THROTTLING,
                        503),
                arguments(s3(429, null, "Too Many Requests"), ErrorClass.THROTTLING, 429),
                arguments(
                        AwsServiceException.builder()
                                .statusCode(400)
                                .message("Rate exceeded")
                                .awsErrorDetails(AwsErrorDetails.builder()
                                        .errorCode("ThrottlingException")
                                        .build())
                                .build(),
                        ErrorClass.THROTTLING,
                        400),
                arguments(
                        SqsException.builder()
                                .statusCode(400)
                                .message("throttled")
                                .awsErrorDetails(AwsErrorDetails.builder()
                                        .errorCode("RequestThrottled")
                                        .build())
                                .build(),
                        ErrorClass.THROTTLING,
                        400),
                arguments(
                        s3(500, "InternalError", "We encountered an internal error. Please try again."),
                        ErrorClass.SERVER_ERROR,
                        500),
                arguments(s3(502, null, "Bad Gateway"), ErrorClass.SERVER_ERROR, 502),
                arguments(s3(504, null, "Gateway Timeout"), ErrorClass.SERVER_ERROR, 504),
                arguments(
                        s3(
                                400,
                                "RequestTimeout",
                                "Your socket connection to the server was not read from or written to within the timeout period."),
                        ErrorClass.TIMEOUT,
                        400),
                arguments(s3(403, "AccessDenied", "Access Denied"), ErrorClass.ACCESS_DENIED, 403),
                arguments(
                        s3(
                                403,
                                "InvalidAccessKeyId",
                                "The AWS Access Key Id you provided does not exist in our records."),
                        ErrorClass.ACCESS_DENIED,
                        403),
                arguments(s3(403, null, null), ErrorClass.ACCESS_DENIED, 403),
                arguments(
                        NoSuchBucketException.builder()
                                .statusCode(404)
                                .message("The specified bucket does not exist")
                                .awsErrorDetails(AwsErrorDetails.builder()
                                        .errorCode("NoSuchBucket")
                                        .build())
                                .build(),
                        ErrorClass.NO_SUCH_BUCKET,
                        404),
                arguments(
                        s3(404, "NoSuchBucket", "The specified bucket does not exist"), ErrorClass.NO_SUCH_BUCKET, 404),
                arguments(s3(400, "InvalidRequest", "Invalid Request"), ErrorClass.INVALID_REQUEST, 400),
                // the content was hashed locally before the PUT: a mismatch at S3 means bytes corrupted on the way
                arguments(
                        s3(400, "BadDigest", "The SHA256 you specified did not match the calculated checksum."),
                        ErrorClass.CONNECTION,
                        400),
                arguments(
                        s3(411, "MissingContentLength", "You must provide the Content-Length HTTP header."),
                        ErrorClass.INVALID_REQUEST,
                        411),
                // DeleteObjects answered 200 and listed the keys it refused, each with S3's error code
                arguments(refused("AccessDenied"), ErrorClass.ACCESS_DENIED, null),
                arguments(refused("InternalError"), ErrorClass.SERVER_ERROR, null),
                arguments(refused("SlowDown"), ErrorClass.THROTTLING, null),
                // the SDK could not complete the call
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request: Read timed out")
                                .cause(new SocketTimeoutException("Read timed out"))
                                .build(),
                        ErrorClass.TIMEOUT,
                        null),
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request: Connection refused")
                                .cause(new ConnectException("Connection refused"))
                                .build(),
                        ErrorClass.CONNECTION,
                        null),
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request: s3.example")
                                .cause(new UnknownHostException("s3.example"))
                                .build(),
                        ErrorClass.CONNECTION,
                        null),
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request: Connection reset")
                                .cause(new SocketException("Connection reset"))
                                .build(),
                        ErrorClass.CONNECTION,
                        null),
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request")
                                .cause(new EOFException("Unexpected end of stream"))
                                .build(),
                        ErrorClass.CONNECTION,
                        null),
                arguments(
                        SdkClientException.builder()
                                .message("Unable to execute HTTP request")
                                .cause(new SSLException("handshake failed"))
                                .build(),
                        ErrorClass.CONNECTION,
                        null),
                arguments(ApiCallTimeoutException.create(8_000), ErrorClass.TIMEOUT, null),
                arguments(ApiCallAttemptTimeoutException.create(5_000), ErrorClass.TIMEOUT, null),
                // the database
                arguments(
                        new DataAccessException(
                                "Error executing SQL UPDATE",
                                new SQLTransientConnectionException(
                                        "HikariPool-1 - Connection is not available, request timed out after 2000ms.")),
                        ErrorClass.DATABASE,
                        null),
                arguments(new DataAccessResourceFailureException("connection lost"), ErrorClass.DATABASE, null),
                // a statement on a session the server terminated: Hikari closes the connection, and resetting it hides
                // the cause
                arguments(
                        new ConnectionException(
                                "Could not set JDBC Connection [HikariProxyConnection@1 wrapping "
                                        + "ClosedConnection] read-only: Connection is closed",
                                new SQLException("Connection is closed")),
                        ErrorClass.DATABASE,
                        null),
                arguments(
                        new SQLException("Connection to 127.0.0.1:5432 refused.", "08001"), ErrorClass.DATABASE, null),
                arguments(
                        new SQLException("terminating connection due to administrator command", "57P01"),
                        ErrorClass.DATABASE,
                        null),
                arguments(new SQLException("sorry, too many clients already", "53300"), ErrorClass.DATABASE, null),
                arguments(
                        new DataAccessException(
                                "Error executing SQL UPDATE",
                                new SQLException("canceling statement due to lock timeout", "55P03")),
                        ErrorClass.DATABASE,
                        null),
                arguments(
                        new SQLException("canceling statement due to statement timeout", "57014"),
                        ErrorClass.DATABASE,
                        null),
                arguments(new SQLException("deadlock detected", "40P01"), ErrorClass.DATABASE, null),
                // the bucket's encryption key
                arguments(s3(400, "KMS.DisabledException", "The key is disabled"), ErrorClass.KMS_KEY, 400),
                arguments(s3(400, "KMS.NotFoundException", "Invalid keyId"), ErrorClass.KMS_KEY, 400),
                // our own checks
                arguments(
                        new IntegrityMismatchException("content hashes to abc, row says def"),
                        ErrorClass.INTEGRITY,
                        null),
                arguments(
                        new CircuitOpenException(java.time.Instant.parse("2026-11-23T10:00:00Z")),
                        ErrorClass.CIRCUIT_OPEN,
                        null),
                // wrapped: the cause chain is walked
                arguments(
                        new IllegalStateException("upload failed", s3(403, "AccessDenied", "Access Denied")),
                        ErrorClass.ACCESS_DENIED,
                        403));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("table")
    void classifies(Throwable failure, ErrorClass expected, Integer status) {
        Failure classified = classifier.classify(failure);
        assertEquals(expected, classified.errorClass());
        assertEquals(expected.kind(), classified.kind());
        assertEquals(status, classified.s3Status());
        assertFalse(classified.unexpected(), "recognised failures are not flagged");
        assertFalse(classified.message().isBlank());
    }

    static Stream<Arguments> unknown() {
        return Stream.of(
                arguments(new IllegalStateException("a bug")),
                arguments(new NullPointerException()),
                arguments(new DataAccessException("duplicate key", new SQLException("duplicate key value", "23505"))),
                arguments(SdkClientException.create("Unable to load credentials from any of the providers")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknown")
    void unknownFailuresAreTransientButFlagged(Throwable failure) {
        Failure classified = classifier.classify(failure);
        assertEquals(ErrorClass.UNKNOWN, classified.errorClass());
        assertEquals(FailureKind.TRANSIENT, classified.kind());
        assertTrue(classified.unexpected());
    }

    @ParameterizedTest
    @MethodSource("table")
    void theKindFollowsTheIssuesLists(Throwable failure, ErrorClass expected, Integer status) {
        boolean permanent = switch (expected) {
            case ACCESS_DENIED, NO_SUCH_BUCKET, KMS_KEY, INVALID_REQUEST, INTEGRITY -> true;
            case THROTTLING, SERVER_ERROR, TIMEOUT, CONNECTION, DATABASE, CIRCUIT_OPEN, UNKNOWN -> false;
        };
        assertEquals(permanent, !classifier.classify(failure).isTransient());
    }

    @org.junit.jupiter.api.Test
    void aWrappedUniqueViolationIsADuplicateKeyAndOtherConstraintsAreNot() {
        assertTrue(classifier.isDuplicateKey(
                new DataAccessException("Error executing PERSIST", new SQLException("duplicate key", "23505"))));
        assertFalse(classifier.isDuplicateKey(new DataAccessException("x", new SQLException("check", "23514"))));
        assertFalse(classifier.isDuplicateKey(new IllegalStateException("bug")));
    }

    @org.junit.jupiter.api.Test
    void aConstraintViolationIsNeitherTransientNorExpected() {
        Failure check = classifier.classify(new DataAccessException("x", new SQLException("check", "23514")));
        assertTrue(check.unexpected());
    }

    @org.junit.jupiter.api.Test
    void messagesAreBounded() {
        Failure classified = classifier.classify(new IllegalStateException("x".repeat(5_000)));
        assertTrue(classified.message().length() <= 500);
    }
}
