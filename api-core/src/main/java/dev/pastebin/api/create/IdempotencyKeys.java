package dev.pastebin.api.create;

import dev.pastebin.core.paste.IdempotencyKey;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The {@code idempotency_keys} table (docs/design.md, "Idempotent create"). The caller owns the connection and
 * its transaction: claiming a key and inserting its paste commit together, or not at all.
 */
@Singleton
public class IdempotencyKeys {

    /**
     * Takes the key for {@code shortCode}, unless someone holds it: a live key blocks the insert (a concurrent
     * first request waits here for the other's commit), a key past its retention is taken over as if absent.
     */
    public static final String CLAIM = """
            INSERT INTO idempotency_keys (caller, idempotency_key, request_sha256, short_code) VALUES (?, ?, ?, ?)
            ON CONFLICT (caller, idempotency_key) DO UPDATE
                SET request_sha256 = EXCLUDED.request_sha256, short_code = EXCLUDED.short_code, created_at = now()
                WHERE idempotency_keys.created_at <= now() - make_interval(secs => ?)
            RETURNING short_code""";

    static final String FIND =
            "SELECT request_sha256, short_code FROM idempotency_keys WHERE caller = ? AND idempotency_key = ?";

    static final String FORGET =
            "DELETE FROM idempotency_keys WHERE caller = ? AND idempotency_key = ? AND short_code = ?";

    /** The request that holds a key and the paste it created. */
    public record Claimed(String requestSha256, String shortCode) {}

    /** Empty when this request now holds the key; otherwise the earlier request that holds it. */
    public Optional<Claimed> claim(Connection connection, IdempotencyKey key, String requestSha256, String shortCode) {
        try {
            return claimOrFind(connection, key, requestSha256, shortCode);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    private static Optional<Claimed> claimOrFind(
            Connection connection, IdempotencyKey key, String requestSha256, String shortCode) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
            claim.setString(1, key.caller());
            claim.setString(2, key.key());
            claim.setString(3, requestSha256);
            claim.setString(4, shortCode);
            claim.setDouble(5, (double) IdempotencyKey.RETENTION.toSeconds());
            try (ResultSet claimed = claim.executeQuery()) {
                if (claimed.next()) {
                    return Optional.empty();
                }
            }
        }
        try (PreparedStatement find = connection.prepareStatement(FIND)) {
            find.setString(1, key.caller());
            find.setString(2, key.key());
            try (ResultSet held = find.executeQuery()) {
                if (!held.next()) {
                    // Unreachable: the claim's DO UPDATE locked the key's row even though its WHERE declined, so
                    // no forget or sweep can delete it before this transaction ends (IdempotencyKeysIT).
                    throw new IllegalStateException("idempotency key neither claimed nor held");
                }
                return Optional.of(new Claimed(held.getString(1), held.getString(2)));
            }
        }
    }

    /** Lets the key go again (its paste could not be queued), so a retry creates the paste afresh. */
    public void forget(Connection connection, IdempotencyKey key, String shortCode) {
        try (PreparedStatement forget = connection.prepareStatement(FORGET)) {
            forget.setString(1, key.caller());
            forget.setString(2, key.key());
            forget.setString(3, shortCode);
            forget.executeUpdate();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Classified like any database failure: the classifier finds the SQLSTATE in the cause. */
    private static DataAccessException failed(SQLException e) {
        return new DataAccessException("idempotency key statement failed: " + e.getMessage(), e);
    }
}
