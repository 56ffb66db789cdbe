package dev.pastebin.core.failure;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.connection.exceptions.ConnectionException;
import io.micronaut.data.exceptions.DataAccessResourceFailureException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * The one failure policy of every function: sorts an exception from S3, SQS, PostgreSQL or the network into
 * an {@link ErrorClass}. Transient failures (5xx, throttling, timeouts, connection errors, database
 * unavailable, lock timeouts, serialization failures) are worth trying again: the upload worker retries them
 * with backoff, the HTTP functions answer 503 with {@code Retry-After} (see {@link DependencyCalls}).
 * Permanent ones (access denied, no such bucket, other 4xx, integrity mismatch) fail at once. Anything not
 * recognised is {@link ErrorClass#UNKNOWN}: the worker retries it, an HTTP function answers 500, and both
 * log it at error level since it may be a bug. See docs/design.md, "Failure classification".
 *
 * <p>The cause chain is walked from the outside in, so a database error wrapped by Micronaut Data or an
 * I/O error wrapped by the SDK is still recognised. The application's own exceptions say what they are
 * ({@link DeclaresErrorClass}, {@link DeclaresErrorCode}): this package knows none of the packages that throw them.
 */
@Singleton
public class FailureClassifier {

    /** Error codes AWS services use for throttling (besides HTTP 429 / 503). */
    private static final Set<String> THROTTLING_CODES = Set.of(
            "SlowDown",
            "Throttling",
            "ThrottlingException",
            "ThrottledException",
            "RequestThrottled",
            "RequestThrottledException",
            "TooManyRequestsException",
            "RequestLimitExceeded",
            "ProvisionedThroughputExceededException",
            "BandwidthLimitExceeded",
            "EC2ThrottledException",
            "PriorRequestNotComplete",
            "TransactionInProgressException");

    /** S3 error codes that mean the request was not read in time (HTTP 400, but transient). */
    private static final Set<String> TIMEOUT_CODES = Set.of("RequestTimeout", "RequestTimeoutException");

    /**
     * S3 computed another checksum than the one sent. The uploader hashes the content before the PUT, so the
     * bytes were corrupted in transit: the same request sent again will most likely arrive intact (HTTP 400,
     * but transient).
     */
    private static final Set<String> CORRUPTED_IN_TRANSIT_CODES = Set.of("BadDigest");

    /** S3's codes for its own 5xx, for answers that carry a code without a status (DeleteObjects' per-key errors). */
    private static final Set<String> SERVER_ERROR_CODES = Set.of("InternalError", "ServiceUnavailable");

    private static final Set<String> ACCESS_DENIED_CODES = Set.of(
            "AccessDenied",
            "AccessDeniedException",
            "InvalidAccessKeyId",
            "SignatureDoesNotMatch",
            "AllAccessDisabled",
            "AccountProblem",
            "InvalidSecurity");

    private static final Set<String> NO_SUCH_BUCKET_CODES = Set.of("NoSuchBucket", "NoSuchBucketException");

    /** S3 reports SSE-KMS problems with codes such as {@code KMS.DisabledException} or {@code KMS.NotFoundException}. */
    private static final String KMS_CODE_PREFIX = "KMS.";

    /**
     * PostgreSQL SQLSTATEs that mean "not now": connection exceptions (08), insufficient resources (53),
     * operator intervention incl. statement timeout and shutdown (57), lock timeout (55P03), serialization
     * failure and deadlock (40001, 40P01).
     */
    private static final Set<String> TRANSIENT_SQL_STATE_PREFIXES = Set.of("08", "53", "57", "55P03", "40001", "40P01");

    /** PostgreSQL unique_violation: a duplicate primary key, i.e. a short-code collision on insert. */
    private static final String UNIQUE_VIOLATION = "23505";

    private static final int MAX_CAUSE_DEPTH = 16;

    /** True when the failure is a duplicate key on insert: not a failure of the database, a collision to handle. */
    public boolean isDuplicateKey(Throwable failure) {
        return hasSqlState(failure, UNIQUE_VIOLATION);
    }

    /** True when an {@link SQLException} with this SQLSTATE is in the cause chain, however deeply wrapped. */
    public static boolean hasSqlState(Throwable failure, String sqlState) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSE_DEPTH; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql && sqlState.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    public Failure classify(Throwable failure) {
        SdkClientException sdkClient = null;
        boolean ioFailure = false;
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSE_DEPTH; t = t.getCause(), depth++) {
            Failure known = classifyOne(t);
            if (known != null) {
                return known;
            }
            if (sdkClient == null && t instanceof SdkClientException e) {
                sdkClient = e;
            }
            ioFailure |= t instanceof IOException || t instanceof UncheckedIOException;
        }
        if (sdkClient != null && (ioFailure || sdkClient.retryable())) {
            // The SDK's HTTP exchange broke (EOF, TLS, a reset the JDK reports generically) or the SDK itself
            // says trying again may succeed: the request did not get through.
            return new Failure(ErrorClass.CONNECTION, null, false, describe(sdkClient));
        }
        return new Failure(ErrorClass.UNKNOWN, null, true, describe(failure));
    }

    @Nullable
    private Failure classifyOne(Throwable t) {
        if (t instanceof DeclaresErrorClass declared) {
            return new Failure(declared.errorClass(), null, false, describe(t));
        }
        if (t instanceof AwsServiceException e) {
            return classifyAnswer(
                    e.statusCode(),
                    e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode(),
                    e.isThrottlingException(),
                    describe(e));
        }
        if (t instanceof SdkServiceException e) {
            return classifyAnswer(e.statusCode(), null, e.isThrottlingException(), describe(e));
        }
        if (t instanceof DeclaresErrorCode refusal) {
            // e.g. S3 answered 200 and refused keys one by one, each with the error code it would answer alone
            return classifyAnswer(0, refusal.errorCode(), false, describe(t));
        }
        if (t instanceof ApiCallTimeoutException
                || t instanceof ApiCallAttemptTimeoutException
                || t instanceof SocketTimeoutException
                || t instanceof HttpTimeoutException) {
            return new Failure(ErrorClass.TIMEOUT, null, false, describe(t));
        }
        if (t instanceof ConnectException
                || t instanceof NoRouteToHostException
                || t instanceof UnknownHostException
                || t instanceof SocketException) {
            return new Failure(ErrorClass.CONNECTION, null, false, describe(t));
        }
        // Micronaut Data's ConnectionException is about the connection, never the statement: it could not be
        // opened, or not be reset after the server closed it under a statement (whose own error it then hides).
        if (t instanceof DataAccessResourceFailureException
                || t instanceof ConnectionException
                || t instanceof SQLTransientException
                || t instanceof SQLRecoverableException
                || t instanceof SQLNonTransientConnectionException) {
            return new Failure(ErrorClass.DATABASE, null, false, describeDatabase(t));
        }
        if (t instanceof SQLException e
                && e.getSQLState() != null
                && TRANSIENT_SQL_STATE_PREFIXES.stream().anyMatch(e.getSQLState()::startsWith)) {
            return new Failure(ErrorClass.DATABASE, null, false, describeDatabase(t));
        }
        if (t instanceof InterruptedIOException) {
            return new Failure(ErrorClass.TIMEOUT, null, false, describe(t));
        }
        return null;
    }

    /** An answer of an AWS service: its HTTP status (0 when only the error code is known) and error code. */
    private static Failure classifyAnswer(int status, @Nullable String errorCode, boolean throttling, String message) {
        Integer s3Status = status > 0 ? status : null;
        String code = errorCode == null ? "" : errorCode;
        ErrorClass errorClass;
        if (THROTTLING_CODES.contains(code) || status == 429 || status == 503 || throttling) {
            errorClass = ErrorClass.THROTTLING;
        } else if (TIMEOUT_CODES.contains(code)) {
            errorClass = ErrorClass.TIMEOUT;
        } else if (CORRUPTED_IN_TRANSIT_CODES.contains(code)) {
            errorClass = ErrorClass.CONNECTION;
        } else if (status >= 500 || SERVER_ERROR_CODES.contains(code)) {
            errorClass = ErrorClass.SERVER_ERROR;
        } else if (code.startsWith(KMS_CODE_PREFIX)) {
            errorClass = ErrorClass.KMS_KEY;
        } else if (NO_SUCH_BUCKET_CODES.contains(code)) {
            errorClass = ErrorClass.NO_SUCH_BUCKET;
        } else if (ACCESS_DENIED_CODES.contains(code) || status == 403 || status == 401) {
            errorClass = ErrorClass.ACCESS_DENIED;
        } else if (status >= 400) {
            errorClass = ErrorClass.INVALID_REQUEST;
        } else {
            return new Failure(ErrorClass.UNKNOWN, s3Status, true, message);
        }
        return new Failure(errorClass, s3Status, false, message);
    }

    /** A database failure's line names a misconfigured connection's cause and setting when it recognises one. */
    static String describeDatabase(Throwable t) {
        return DatabaseConnectionDiagnosis.explain(t)
                .map(why -> t.getClass().getSimpleName() + ": " + why)
                .orElseGet(() -> describe(t));
    }

    /** Class and message, e.g. {@code S3Exception: SlowDown: Please reduce your request rate.}; never content. */
    static String describe(Throwable t) {
        String detail;
        if (t instanceof AwsServiceException e && e.awsErrorDetails() != null) {
            var details = e.awsErrorDetails();
            detail = details.errorCode() + " (HTTP " + e.statusCode() + "): " + details.errorMessage();
        } else {
            detail = t.getMessage();
        }
        String text = t.getClass().getSimpleName() + (detail == null ? "" : ": " + detail);
        return text.length() <= 500 ? text : text.substring(0, 500);
    }
}
