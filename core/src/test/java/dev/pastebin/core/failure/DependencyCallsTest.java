package dev.pastebin.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micronaut.data.exceptions.DataAccessException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** What an HTTP function answers for a failing dependency: 503 exactly when the classifier says transient. */
class DependencyCallsTest {

    private final DependencyCalls calls = new DependencyCalls(new FailureClassifier());

    @Test
    void aResultPassesThrough() {
        assertEquals("row", calls.call(Dependency.DATABASE, () -> "row"));
    }

    @Test
    void connectionFailuresPoolTimeoutsAndShutdownAreUnavailable() {
        for (RuntimeException failure : new RuntimeException[] {
            new DataAccessException("x", new SQLException("Connection refused", "08001")),
            new RuntimeException(
                    new SQLTransientConnectionException("pool - Connection is not available, request timed out")),
            new DataAccessException("x", new SQLException("terminating connection", "57P01")),
            new DataAccessException("x", new SQLException("too many connections", "53300"))
        }) {
            var thrown = assertThrows(
                    DependencyUnavailableException.class,
                    () -> calls.call(Dependency.DATABASE, () -> {
                        throw failure;
                    }));
            assertEquals(Dependency.DATABASE, thrown.dependency());
            assertSame(failure, thrown.getCause());
        }
    }

    @Test
    void lockTimeoutsSerializationFailuresAndDeadlocksAreUnavailableAsTheWorkerRetriesThem() {
        for (String state : new String[] {"55P03", "40001", "40P01"}) {
            assertThrows(
                    DependencyUnavailableException.class,
                    () -> calls.run(Dependency.DATABASE, () -> {
                        throw new DataAccessException("x", new SQLException("not now", state));
                    }),
                    state);
        }
    }

    @Test
    void storageThrottlingAndUnreachableStorageAreUnavailable() {
        RuntimeException slowDown = S3Exception.builder()
                .statusCode(503)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("SlowDown").build())
                .build();
        RuntimeException refused = SdkClientException.builder()
                .message("Unable to execute HTTP request")
                .cause(new ConnectException("Connection refused"))
                .build();
        for (RuntimeException failure : new RuntimeException[] {slowDown, refused}) {
            var thrown = assertThrows(
                    DependencyUnavailableException.class,
                    () -> calls.call(Dependency.STORAGE, () -> {
                        throw failure;
                    }));
            assertEquals("storage", thrown.dependency().label());
        }
    }

    @Test
    void permanentAndUnrecognisedFailuresPropagateUnchanged() {
        RuntimeException denied = S3Exception.builder()
                .statusCode(403)
                .awsErrorDetails(
                        AwsErrorDetails.builder().errorCode("AccessDenied").build())
                .build();
        RuntimeException duplicate = new DataAccessException("x", new SQLException("duplicate key", "23505"));
        RuntimeException bug = new IllegalStateException("a bug");
        for (RuntimeException failure : new RuntimeException[] {denied, duplicate, bug}) {
            assertSame(
                    failure,
                    assertThrows(
                            RuntimeException.class,
                            () -> calls.call(Dependency.STORAGE, () -> {
                                throw failure;
                            })));
        }
    }
}
