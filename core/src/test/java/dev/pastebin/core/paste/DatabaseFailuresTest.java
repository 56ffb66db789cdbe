package dev.pastebin.core.paste;

import io.micronaut.data.exceptions.DataAccessException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatabaseFailuresTest {

    @Test
    void aWrappedUniqueViolationIsACollision() {
        var e = new DataAccessException("Error executing PERSIST", new SQLException("duplicate key", "23505"));
        assertTrue(DatabaseFailures.isUniqueViolation(e));
        assertFalse(DatabaseFailures.isUnavailable(e));
    }

    @Test
    void otherConstraintViolationsAreNeitherCollisionsNorOutages() {
        var check = new DataAccessException("x", new SQLException("check", "23514"));
        assertFalse(DatabaseFailures.isUniqueViolation(check));
        assertFalse(DatabaseFailures.isUnavailable(check));
        assertFalse(DatabaseFailures.isUnavailable(new IllegalStateException("bug")));
    }

    @Test
    void connectionFailuresAndPoolTimeoutsAreOutages() {
        assertTrue(DatabaseFailures.isUnavailable(new DataAccessException("x",
                new SQLException("Connection refused", "08001"))));
        assertTrue(DatabaseFailures.isUnavailable(new RuntimeException(
                new SQLTransientConnectionException("pool - Connection is not available, request timed out"))));
        assertTrue(DatabaseFailures.isUnavailable(new SQLException("terminating connection", "57P01")));
        assertTrue(DatabaseFailures.isUnavailable(new SQLException("too many connections", "53300")));
    }
}
