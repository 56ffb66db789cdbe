package dev.pastebin.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

/**
 * The shapes DatabaseConnectionDiagnosisIT meets against a real TLS-only PostgreSQL through Hikari and pgjdbc
 * (printed there as "chain of ..."), built by hand: Hikari's timeout with pgjdbc's failure as its cause, and under
 * it what the JDK's TLS stack threw. The JDK's own ValidatorException and SunCertPathBuilderException are internal;
 * their public superclasses stand in for them.
 */
class DatabaseConnectionDiagnosisTest {

    /** Hikari's timeout with the last failure as its cause, and that failure's SQLSTATE, as Hikari copies it. */
    private static SQLTransientConnectionException hikariTimeout(SQLException pgjdbc) {
        return new SQLTransientConnectionException(
                "HikariPool-1 - Connection is not available, request timed out after 3000ms (total=0, active=0,"
                        + " idle=0, waiting=0)",
                pgjdbc.getSQLState(),
                pgjdbc);
    }

    private static PSQLException sslError(Throwable tls) {
        return new PSQLException("SSL error: " + tls.getMessage(), PSQLState.CONNECTION_FAILURE, tls);
    }

    private static SSLHandshakeException handshake(String message, Throwable cause) {
        var handshake = new SSLHandshakeException(message);
        handshake.initCause(cause);
        return handshake;
    }

    @Test
    void aCaThatSignedNothingTheServerPresentsNamesTheTrustAnchor() {
        var notTrusted = new CertPathBuilderException("unable to find valid certification path to requested target");
        var failure = hikariTimeout(sslError(handshake(
                "PKIX path building failed: " + notTrusted, new IOException("PKIX path building failed", notTrusted))));

        String explained = DatabaseConnectionDiagnosis.explain(failure).orElseThrow();

        assertTrue(explained.contains("does not chain to a CA the function trusts"), explained);
        assertTrue(explained.contains("DatabaseTrustAnchor"), explained);
        assertTrue(explained.contains("pastebin.database.tls.ca-bundle"), explained);
    }

    /** The upload function logs a database failure through the classifier, not a 503: the same words reach it. */
    @Test
    void theClassifiersDescriptionOfADatabaseFailureCarriesTheExplanation() {
        var notTrusted = new CertPathBuilderException("unable to find valid certification path to requested target");
        var failure = hikariTimeout(sslError(handshake(
                "PKIX path building failed: " + notTrusted, new IOException("PKIX path building failed", notTrusted))));

        Failure classified = new FailureClassifier().classify(failure);

        assertEquals(ErrorClass.DATABASE, classified.errorClass());
        assertTrue(classified.message().contains("DatabaseTrustAnchor"), classified.message());
    }

    @Test
    void aCertificateForAnotherHostNamesTheHostAndDatabaseUrl() {
        var failure = hikariTimeout(new PSQLException(
                "The hostname 127.0.0.1 could not be verified by hostnameverifier PgjdbcHostnameVerifier.",
                PSQLState.CONNECTION_UNABLE_TO_CONNECT));

        String explained = DatabaseConnectionDiagnosis.explain(failure).orElseThrow();

        assertTrue(explained.contains("not for the host name 127.0.0.1"), explained);
        assertTrue(explained.contains("DatabaseUrl"), explained);
    }

    @Test
    void anExpiredServerCertificateSaysItExpiredAndWhen() {
        var expired = new CertificateExpiredException("NotAfter: Thu Jan 02 00:00:00 UTC 2020");
        var invalid = new CertPathValidatorException(
                "validity check failed", expired, null, -1, CertPathValidatorException.BasicReason.EXPIRED);
        var failure = hikariTimeout(sslError(handshake(
                "PKIX path validation failed: " + invalid, new IOException("PKIX path validation failed", invalid))));

        String explained = DatabaseConnectionDiagnosis.explain(failure).orElseThrow();

        assertTrue(explained.contains("certificate expired (NotAfter: Thu Jan 02 00:00:00 UTC 2020)"), explained);
        assertTrue(explained.contains("renew it on the server"), explained);
    }

    @Test
    void aRefusedPasswordNamesTheUserAndTheFunctionsSecret() {
        var failure = hikariTimeout(new PSQLException(
                "FATAL: password authentication failed for user \"password_checked\"", PSQLState.INVALID_PASSWORD));

        String explained = DatabaseConnectionDiagnosis.explain(failure).orElseThrow();

        assertEquals("28P01", PSQLState.INVALID_PASSWORD.getState());
        assertTrue(explained.contains("password of user \"password_checked\" (SQLSTATE 28P01)"), explained);
        assertTrue(explained.contains("PASTEBIN_DATABASE_SECRET_ID"), explained);
    }

    @Test
    void aServerThatIsDownIsNotExplained() {
        var failure = hikariTimeout(new PSQLException(
                "Connection to localhost:5432 refused.",
                PSQLState.CONNECTION_UNABLE_TO_CONNECT,
                new ConnectException("Connection refused")));

        assertEquals(Optional.empty(), DatabaseConnectionDiagnosis.explain(failure));
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        var first = new RuntimeException("first");
        var second = new RuntimeException("second", first);
        first.initCause(second);

        assertEquals(Optional.empty(), DatabaseConnectionDiagnosis.explain(first));
    }
}
