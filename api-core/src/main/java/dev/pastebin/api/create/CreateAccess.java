package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.api.create.ApiKeyLookup.Grant;
import dev.pastebin.core.access.UtcDay;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.SignInRequiredException;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may create (docs/design.md, "Private instances: API keys"): the one check of every create route and protocol,
 * called by {@link CreatePasteService}. With {@code CreateAccess=anyone} it admits everyone and runs no statement;
 * with {@code oidc} it admits a create that carries the subject API Gateway's JWT authorizer verified, and runs none.
 * With {@code api-key} the create must present a bearer key: {@link #admit} looks it up on every create
 * ({@link ApiKeyLookup}: nothing is cached, so a revocation holds from the next create), and {@link #consume}, in
 * the paste's transaction, claims the paste and its bytes from the key's UTC day and records the key on the paste,
 * in one statement that changes the day's usage only while it stays within the key's limits; a create that does
 * not commit consumes nothing, and one
 * that commits and then fails for good (its job cannot be queued) gives its claim back ({@link #release}).
 */
@Singleton
public class CreateAccess {

    /**
     * The day's usage grows by this paste only within the limits (the insert of a day's first paste, too), and the
     * paste gets its owner only then: no row returned means over the limit. Concurrent creates on one key wait for
     * each other's usage row (the conflicting insert or its lock), then see its committed count: exact, whatever the
     * interleaving.
     */
    static final String CONSUME = """
            WITH claim (key_id, day, bytes, daily_pastes, daily_bytes) AS (
                VALUES (?::uuid, ?::date, ?::bigint, ?::integer, ?::bigint)),
            usage AS (
                INSERT INTO api_key_usage AS u (key_id, day, pastes, bytes)
                SELECT key_id, day, 1, bytes FROM claim
                WHERE (daily_pastes IS NULL OR daily_pastes >= 1) AND (daily_bytes IS NULL OR bytes <= daily_bytes)
                ON CONFLICT (key_id, day) DO UPDATE SET pastes = u.pastes + 1, bytes = u.bytes + EXCLUDED.bytes
                WHERE ((SELECT daily_pastes FROM claim) IS NULL OR u.pastes + 1 <= (SELECT daily_pastes FROM claim))
                  AND ((SELECT daily_bytes FROM claim) IS NULL
                       OR u.bytes + EXCLUDED.bytes <= (SELECT daily_bytes FROM claim))
                RETURNING u.pastes)
            UPDATE pastes SET owner_key_id = (SELECT key_id FROM claim)
            WHERE short_code = ? AND EXISTS (SELECT FROM usage)
            RETURNING short_code""";

    static final String RELEASE =
            "UPDATE api_key_usage SET pastes = pastes - 1, bytes = bytes - ? WHERE key_id = ? AND day = ?";

    private static final Logger LOG = LoggerFactory.getLogger(CreateAccess.class);

    /** What one create claims from its key: one paste of {@code sizeBytes} in the UTC day of {@code at}. */
    public record Claim(Grant grant, Instant at, int sizeBytes) {}

    private final CreateAccessProperties properties;
    private final ApiKeyLookup keys;
    private final ConnectionOperations<Connection> connections;
    private final DependencyCalls dependencies;
    private final Clock clock = Clock.systemUTC();

    public CreateAccess(
            CreateAccessProperties properties,
            ApiKeyLookup keys,
            ConnectionOperations<Connection> connections,
            DependencyCalls dependencies) {
        this.properties = properties;
        this.keys = keys;
        this.connections = connections;
        this.dependencies = dependencies;
    }

    /**
     * @return the key's grant when a key is required; empty otherwise (no statement is run)
     * @throws ApiKeyRequiredException when a key is required and none was presented
     * @throws SignInRequiredException when a sign-in is required and no verified subject reached the function
     * @throws ApiKeyInvalidException  when the credential is no bearer token, or its key is unknown or revoked
     */
    public Optional<Grant> admit(CreateCredential credential) {
        return switch (properties.access()) {
            case ANYONE -> Optional.empty();
            case OIDC -> {
                if (CreateCredential.subjectOf(credential) == null) {
                    throw new SignInRequiredException(
                            "This instance takes pastes only from signed-in users: send Authorization: Bearer <token>"
                                    + " from its identity provider");
                }
                yield Optional.empty();
            }
            case API_KEY ->
                Optional.of(keys.require(
                        credential,
                        "This instance takes pastes only with an API key: send Authorization: Bearer <key>"));
        };
    }

    /** The claim a create of {@code sizeBytes} makes on {@code grant}'s key, now. */
    public Claim claim(Grant grant, int sizeBytes) {
        return new Claim(grant, clock.instant(), sizeBytes);
    }

    /**
     * Takes {@code claim} from the key's UTC day and records the key as the paste's owner, on the create's connection
     * and in its transaction (the paste's row is already inserted).
     *
     * @throws ApiKeyQuotaExceededException when the paste would take the key past a daily limit: the caller's
     *                                      transaction then rolls back, the paste's row with it
     */
    public void consume(Connection connection, Claim claim, String shortCode) {
        Grant grant = claim.grant();
        try (PreparedStatement consume = connection.prepareStatement(CONSUME)) {
            consume.setObject(1, grant.keyId());
            consume.setObject(2, UtcDay.of(claim.at()));
            consume.setLong(3, claim.sizeBytes());
            if (grant.dailyPastes() == null) {
                consume.setNull(4, Types.INTEGER);
            } else {
                consume.setInt(4, grant.dailyPastes());
            }
            if (grant.dailyBytes() == null) {
                consume.setNull(5, Types.BIGINT);
            } else {
                consume.setLong(5, grant.dailyBytes());
            }
            consume.setString(6, shortCode);
            try (ResultSet owned = consume.executeQuery()) {
                if (owned.next()) {
                    return;
                }
            }
        } catch (SQLException e) {
            throw failed(e);
        }
        throw new ApiKeyQuotaExceededException(
                "This API key has created all the pastes or bytes it may today (UTC); it may create again after"
                        + " midnight UTC",
                UtcDay.secondsUntilNext(claim.at()));
    }

    /**
     * Gives {@code claim} back: its create committed, then failed for good (its upload job could not be queued and
     * its row is FAILED), so it must not count. Best effort, after the commit: if the database refuses now too, the
     * key's day keeps the paste counted, which is logged.
     */
    public void release(Claim claim) {
        try {
            dependencies.run(
                    DATABASE,
                    () -> connections.executeWrite(status -> {
                        try (PreparedStatement release = status.getConnection().prepareStatement(RELEASE)) {
                            release.setLong(1, claim.sizeBytes());
                            release.setObject(2, claim.grant().keyId());
                            release.setObject(3, UtcDay.of(claim.at()));
                            return release.executeUpdate();
                        } catch (SQLException e) {
                            throw failed(e);
                        }
                    }));
        } catch (RuntimeException e) {
            LOG.error(
                    "API key {}: giving back the claim of a failed create failed too ({}); it stays counted for {}",
                    claim.grant().keyId(),
                    e.toString(),
                    UtcDay.of(claim.at()));
        }
    }

    /** Classified like any database failure: the classifier finds the SQLSTATE in the cause. */
    private static DataAccessException failed(SQLException e) {
        return new DataAccessException("API key statement failed: " + e.getMessage(), e);
    }
}
