package dev.pastebin.moderation;

import dev.pastebin.core.access.ApiKeyTokens;
import dev.pastebin.core.access.UtcDay;
import dev.pastebin.moderation.ModerationAnswer.KeyEntry;
import dev.pastebin.moderation.ModerationService.BadCommandException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's API keys for a private instance (docs/operating.md, "API keys"): {@code create-key} issues one
 * ({@link ApiKeyTokens}: the key is in this answer only, its SHA-256 is stored), {@code list-keys} shows every key
 * with its limits, the current UTC day's usage and its paste count, never a key or a hash, and {@code revoke-key}
 * ends one. A revocation holds from the next create: the create functions look the key up on every create, and
 * cache nothing.
 */
@Singleton
class KeysService {

    static final Set<String> ACTIONS = Set.of("create-key", "list-keys", "revoke-key");
    static final int MAX_NAME_LENGTH = 200;

    private static final Logger LOG = LoggerFactory.getLogger(KeysService.class);

    static final String CREATE = """
            INSERT INTO api_keys (name, key_sha256, daily_pastes, daily_bytes) VALUES (?, ?, ?, ?)
            RETURNING id, created_at""";

    /** Each key with the day's usage (none yet: 0) and how many of its pastes exist. */
    static final String LIST = """
            SELECT k.id, k.name, k.created_at, k.revoked_at, k.daily_pastes, k.daily_bytes,
                   COALESCE(u.pastes, 0) AS pastes_today, COALESCE(u.bytes, 0) AS bytes_today,
                   (SELECT count(*) FROM pastes p WHERE p.owner_key_id = k.id) AS pastes
            FROM api_keys k LEFT JOIN api_key_usage u ON u.key_id = k.id AND u.day = ?
            ORDER BY k.created_at, k.id""";

    static final String REVOKE = """
            UPDATE api_keys SET revoked_at = now() WHERE id = ? AND revoked_at IS NULL
            RETURNING id, name, created_at, revoked_at, daily_pastes, daily_bytes""";

    static final String FIND =
            "SELECT id, name, created_at, revoked_at, daily_pastes, daily_bytes FROM api_keys WHERE id = ?";

    private final TransactionOperations<Connection> transactions;
    private final ApiKeyTokens tokens;
    private final Clock clock = Clock.systemUTC();

    KeysService(TransactionOperations<Connection> transactions, ApiKeyTokens tokens) {
        this.transactions = transactions;
        this.tokens = tokens;
    }

    ModerationAnswer handle(ModerationCommand command) {
        try {
            return switch (String.valueOf(command.action())) {
                case "create-key" -> create(command);
                case "list-keys" -> list();
                case "revoke-key" -> revoke(command);
                default -> throw new BadCommandException("not a keys command: " + command.action());
            };
        } catch (BadCommandException e) {
            LOG.info("keys command refused: {}", e.getMessage());
            return ModerationAnswer.refused(e.getMessage());
        }
    }

    private ModerationAnswer create(ModerationCommand command) {
        String name = name(command.name());
        Long dailyPastes = limit("dailyPastes", command.dailyPastes(), Integer.MAX_VALUE);
        Long dailyBytes = limit("dailyBytes", command.dailyBytes(), Long.MAX_VALUE);
        ApiKeyTokens.Issued issued = tokens.issue();
        KeyEntry created = transactions.executeWrite(status -> {
            try (PreparedStatement insert = status.getConnection().prepareStatement(CREATE)) {
                insert.setString(1, name);
                insert.setString(2, issued.sha256());
                setLong(insert, 3, dailyPastes, Types.INTEGER);
                setLong(insert, 4, dailyBytes, Types.BIGINT);
                try (ResultSet row = insert.executeQuery()) {
                    row.next();
                    return new KeyEntry(
                            row.getString("id"),
                            name,
                            issued.key(),
                            instant(row.getTimestamp("created_at")),
                            null,
                            dailyPastes,
                            dailyBytes,
                            0L,
                            0L,
                            0L);
                }
            } catch (SQLException e) {
                throw failed(e);
            }
        });
        // the key is never logged: the answer is its only copy
        LOG.info("API key {} ({}) created by {}", created.id(), name, command.requestedBy());
        return ModerationAnswer.onKeys(
                "key-created",
                created,
                null,
                "The key is shown this once (only its SHA-256 is stored): give it to its holder now. Revoke it with"
                        + " keys revoke " + created.id());
    }

    private ModerationAnswer list() {
        LocalDate today = UtcDay.of(clock.instant());
        List<KeyEntry> keys = transactions.executeRead(status -> {
            try (PreparedStatement select = status.getConnection().prepareStatement(LIST)) {
                select.setObject(1, today);
                List<KeyEntry> entries = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        entries.add(entry(
                                rows,
                                rows.getLong("pastes_today"),
                                rows.getLong("bytes_today"),
                                rows.getLong("pastes")));
                    }
                }
                return entries;
            } catch (SQLException e) {
                throw failed(e);
            }
        });
        return ModerationAnswer.onKeys("keys", null, keys, "usage is of the UTC day " + today);
    }

    private ModerationAnswer revoke(ModerationCommand command) {
        UUID id = id(command.id());
        record Revocation(boolean revokedNow, Optional<KeyEntry> key) {}
        Revocation revocation = transactions.executeWrite(status -> {
            try {
                Optional<KeyEntry> revoked = one(status.getConnection(), REVOKE, id);
                return revoked.isPresent()
                        ? new Revocation(true, revoked)
                        : new Revocation(false, one(status.getConnection(), FIND, id));
            } catch (SQLException e) {
                throw failed(e);
            }
        });
        KeyEntry key = revocation
                .key()
                .orElseThrow(() -> new BadCommandException("no API key has the id " + id + " (see keys list)"));
        if (!revocation.revokedNow()) {
            return ModerationAnswer.onKeys("already-revoked", key, null, "revoked at " + key.revokedAt());
        }
        LOG.info("API key {} ({}) revoked by {}", key.id(), key.name(), command.requestedBy());
        return ModerationAnswer.onKeys("revoked", key, null, "every create with this key is refused from now on (401)");
    }

    private static Optional<KeyEntry> one(Connection connection, String sql, UUID id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(entry(row, null, null, null)) : Optional.empty();
            }
        }
    }

    private static KeyEntry entry(
            ResultSet row, @Nullable Long pastesToday, @Nullable Long bytesToday, @Nullable Long pastes)
            throws SQLException {
        Timestamp revokedAt = row.getTimestamp("revoked_at");
        return new KeyEntry(
                row.getString("id"),
                row.getString("name"),
                null,
                instant(row.getTimestamp("created_at")),
                revokedAt == null ? null : instant(revokedAt),
                nullableLong(row, "daily_pastes"),
                nullableLong(row, "daily_bytes"),
                pastesToday,
                bytesToday,
                pastes);
    }

    private static String name(@Nullable String name) {
        if (name == null || name.isBlank()) {
            throw new BadCommandException("name is required: whom or what the key is for");
        }
        String stripped = name.strip();
        if (stripped.length() > MAX_NAME_LENGTH || stripped.chars().anyMatch(Character::isISOControl)) {
            throw new BadCommandException(
                    "name must be at most " + MAX_NAME_LENGTH + " characters without control characters");
        }
        return stripped;
    }

    private static @Nullable Long limit(String field, @Nullable Long value, long max) {
        if (value != null && (value < 0 || value > max)) {
            throw new BadCommandException(
                    field + " must be a whole number from 0 to " + max + ", or absent (unlimited)");
        }
        return value;
    }

    private static UUID id(@Nullable String id) {
        if (id == null || id.isBlank()) {
            throw new BadCommandException("revoke-key needs the key's id (see keys list)");
        }
        try {
            return UUID.fromString(id.strip());
        } catch (IllegalArgumentException e) {
            throw new BadCommandException("not a key id: " + id + " (see keys list)");
        }
    }

    private static void setLong(PreparedStatement statement, int index, @Nullable Long value, int sqlType)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, sqlType);
        } else {
            statement.setLong(index, value);
        }
    }

    private static @Nullable Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    private static String instant(Timestamp timestamp) {
        return timestamp.toInstant().toString();
    }

    private static DataAccessException failed(SQLException e) {
        return new DataAccessException("API key statement failed: " + e.getMessage(), e);
    }
}
