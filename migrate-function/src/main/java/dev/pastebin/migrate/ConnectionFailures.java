package dev.pastebin.migrate;

import dev.pastebin.core.failure.DatabaseConnectionDiagnosis;
import dev.pastebin.core.failure.FailureClassifier;

/**
 * Why a connection as a role failed, in words that name the setting to check: a refused password names the
 * secret the custom resource gave for that role; a misconfigured TLS connection (trust anchor, host name, an
 * expired certificate) is core's {@link DatabaseConnectionDiagnosis}, the same words as the functions' logs.
 */
final class ConnectionFailures {

    /** PostgreSQL's invalid_password (also its answer for an unknown user). */
    static final String INVALID_PASSWORD = "28P01";

    private ConnectionFailures() {}

    static String explain(Throwable failure, String who) {
        if (FailureClassifier.hasSqlState(failure, INVALID_PASSWORD)) {
            return "PostgreSQL refused the password of " + who + ": the secret does not hold the role's password";
        }
        return "cannot connect as " + who + ": "
                + DatabaseConnectionDiagnosis.explain(failure).orElseGet(() -> Reasons.describe(failure));
    }
}
