package dev.pastebin.migrate;

import dev.pastebin.core.failure.FailureClassifier;

/** Why a connection as a role failed, in words that name the setting to check. */
final class ConnectionFailures {

    /** PostgreSQL's invalid_password (also its answer for an unknown user). */
    static final String INVALID_PASSWORD = "28P01";

    private ConnectionFailures() {}

    static String explain(Throwable failure, String who) {
        if (FailureClassifier.hasSqlState(failure, INVALID_PASSWORD)) {
            return "PostgreSQL refused the password of " + who + ": the secret does not hold the role's password";
        }
        return "cannot connect as " + who + ": " + Reasons.describe(failure);
    }
}
