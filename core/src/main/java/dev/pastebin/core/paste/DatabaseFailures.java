package dev.pastebin.core.paste;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLNonTransientConnectionException;

/**
 * Classifies database exceptions by the SQLSTATE of the {@link SQLException} they wrap (Micronaut Data and
 * Hikari wrap the driver's exception; the state survives in the cause chain).
 */
public final class DatabaseFailures {

    /** PostgreSQL unique_violation: a duplicate primary key, i.e. a short-code collision on insert. */
    public static final String UNIQUE_VIOLATION = "23505";

    private DatabaseFailures() {
    }

    public static boolean isUniqueViolation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the database could not be reached or refused work for now (connection failures, pool
     * timeouts, shutdown, out of resources): worth retrying later, unlike a bad statement or a constraint.
     */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException
                    || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // 08: connection exception, 53: insufficient resources, 57P0x: shutdown / cannot connect now
                if (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P0")) {
                    return true;
                }
            }
        }
        return false;
    }
}
