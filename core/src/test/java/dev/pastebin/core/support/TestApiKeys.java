package dev.pastebin.core.support;

import dev.pastebin.core.access.ApiKeyTokens;
import io.micronaut.core.annotation.Nullable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * API keys for the create functions' tests, written as the moderation function's {@code keys create} writes them
 * (its own tests, KeysIT, go through the command): a fresh key, its SHA-256 stored, and its id.
 */
public final class TestApiKeys {

    private TestApiKeys() {}

    /** A key and its row's id. */
    public record Key(UUID id, String key) {
        public String bearer() {
            return "Bearer " + key;
        }
    }

    public static Key issue(DataSource database, @Nullable Integer dailyPastes, @Nullable Long dailyBytes)
            throws SQLException {
        ApiKeyTokens.Issued issued = new ApiKeyTokens().issue();
        try (Connection c = database.getConnection();
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO api_keys (name, key_sha256, daily_pastes, daily_bytes) VALUES (?, ?, ?, ?)"
                                + " RETURNING id")) {
            insert.setString(1, "test " + UUID.randomUUID());
            insert.setString(2, issued.sha256());
            if (dailyPastes == null) {
                insert.setNull(3, Types.INTEGER);
            } else {
                insert.setInt(3, dailyPastes);
            }
            if (dailyBytes == null) {
                insert.setNull(4, Types.BIGINT);
            } else {
                insert.setLong(4, dailyBytes);
            }
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return new Key(row.getObject(1, UUID.class), issued.key());
            }
        }
    }

    public static void revoke(DataSource database, UUID id) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement revoke = c.prepareStatement("UPDATE api_keys SET revoked_at = now() WHERE id = ?")) {
            revoke.setObject(1, id);
            revoke.executeUpdate();
        }
    }

    /** The key a paste was created with, or null. */
    public static @Nullable UUID ownerOf(DataSource database, String shortCode) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT owner_key_id FROM pastes WHERE short_code = ?")) {
            select.setString(1, shortCode);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getObject(1, UUID.class) : null;
            }
        }
    }

    /** How many pastes the key created in its current UTC day, as the create counted them (0 without a row). */
    public static long pastesToday(DataSource database, UUID id) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement select = c.prepareStatement(
                        "SELECT pastes FROM api_key_usage WHERE key_id = ? AND day = (now() AT TIME ZONE 'UTC')::date")) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    /** How many pastes that exist now were created with the key. */
    public static long pastesOwnedBy(DataSource database, UUID id) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT count(*) FROM pastes WHERE owner_key_id = ?")) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
