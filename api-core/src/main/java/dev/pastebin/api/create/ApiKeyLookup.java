package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.access.ApiKeyTokens;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * Whose API key a request presents (docs/design.md, "Private instances: API keys"): the one lookup of a bearer key,
 * for the creates ({@link CreateAccess}) and for the owner's routes ({@code api.owner}). Every call looks the key up
 * (nothing is cached), so a revocation holds from the next request.
 */
@Singleton
public class ApiKeyLookup {

    static final String FIND = "SELECT id, revoked_at, daily_pastes, daily_bytes FROM api_keys WHERE key_sha256 = ?";

    /** A live key: whose it is and its daily limits (null: unlimited). */
    public record Grant(
            UUID keyId,
            @Nullable Integer dailyPastes,
            @Nullable Long dailyBytes) {}

    private final ConnectionOperations<Connection> connections;
    private final DependencyCalls dependencies;

    public ApiKeyLookup(ConnectionOperations<Connection> connections, DependencyCalls dependencies) {
        this.connections = connections;
        this.dependencies = dependencies;
    }

    /**
     * @param requiredMessage what a request without any credential is told
     * @return the presented key's grant
     * @throws ApiKeyRequiredException when no credential was presented
     * @throws ApiKeyInvalidException  when the credential is no bearer token, or its key is unknown or revoked
     */
    public Grant require(CreateCredential credential, String requiredMessage) {
        return switch (credential) {
            case CreateCredential.None none -> throw new ApiKeyRequiredException(requiredMessage);
            // a verified token reaches a function only through a route with a JWT authorizer, never one that takes keys
            case CreateCredential.Malformed malformed -> throw malformed();
            case CreateCredential.Verified verified -> throw malformed();
            case CreateCredential.Bearer bearer -> lookUp(bearer.token());
        };
    }

    private static ApiKeyInvalidException malformed() {
        return new ApiKeyInvalidException(
                ApiKeyInvalidException.Reason.MALFORMED, "Send the API key as Authorization: Bearer <key>");
    }

    private Grant lookUp(String key) {
        if (!ApiKeyTokens.isWellFormed(key)) {
            throw unknown();
        }
        String sha256 = ApiKeyTokens.hashOf(key);
        Optional<Row> row = dependencies.call(
                DATABASE, () -> connections.executeRead(status -> find(status.getConnection(), sha256)));
        Row found = row.orElseThrow(ApiKeyLookup::unknown);
        if (found.revoked()) {
            throw new ApiKeyInvalidException(ApiKeyInvalidException.Reason.REVOKED, "This API key was revoked");
        }
        return found.grant();
    }

    private record Row(Grant grant, boolean revoked) {}

    private static Optional<Row> find(Connection connection, String sha256) {
        try (PreparedStatement find = connection.prepareStatement(FIND)) {
            find.setString(1, sha256);
            try (ResultSet row = find.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                int dailyPastes = row.getInt("daily_pastes");
                Integer pastes = row.wasNull() ? null : dailyPastes;
                long dailyBytes = row.getLong("daily_bytes");
                Long bytes = row.wasNull() ? null : dailyBytes;
                return Optional.of(new Row(
                        new Grant(row.getObject("id", UUID.class), pastes, bytes),
                        row.getTimestamp("revoked_at") != null));
            }
        } catch (SQLException e) {
            // classified like any database failure: the classifier finds the SQLSTATE in the cause
            throw new DataAccessException("API key statement failed: " + e.getMessage(), e);
        }
    }

    private static ApiKeyInvalidException unknown() {
        return new ApiKeyInvalidException(ApiKeyInvalidException.Reason.UNKNOWN, "Unknown API key");
    }
}
