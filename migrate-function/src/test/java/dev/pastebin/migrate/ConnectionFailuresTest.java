package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class ConnectionFailuresTest {

    @Test
    void aRefusedPasswordNamesTheRoleAndItsSecret() {
        String reason = ConnectionFailures.explain(
                new SQLException("FATAL: password authentication failed for user \"pastebin_read\"", "28P01"),
                "role pastebin_read (secret arn:read)");
        assertTrue(reason.contains("refused the password of role pastebin_read (secret arn:read)"), reason);
    }

    @Test
    void anyOtherFailureSaysItsRootCause() {
        String reason = ConnectionFailures.explain(
                new SQLException("Connection refused", "08001", new java.net.ConnectException("Connection refused")),
                "the schema's owner");
        assertTrue(reason.startsWith("cannot connect as the schema's owner: Connection refused"), reason);
    }
}
