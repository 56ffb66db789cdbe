package dev.pastebin.api.owner;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.access.Owner;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.PasteStatus;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists an owner's pastes, newest first, a keyset page at a time (docs/design.md, "Ownership"): one statement per
 * page, a range scan of the owner's partial index ({@code pastes_owner_key_id_listing} or
 * {@code pastes_user_id_listing}, V17) from the cursor on. Anonymous pastes are in neither index and are never
 * anyone's.
 */
@Singleton
public class ListOwnedPastesService {

    private static final String COLUMNS = "short_code, status, created_at, expires_at, size_bytes, read_once";

    private final ConnectionOperations<Connection> connections;
    private final DependencyCalls dependencies;
    private final Clock clock = Clock.systemUTC();

    public ListOwnedPastesService(ConnectionOperations<Connection> connections, DependencyCalls dependencies) {
        this.connections = connections;
        this.dependencies = dependencies;
    }

    /** @throws DependencyUnavailableException when the database cannot be reached */
    public OwnedPastesPage page(Owner owner, PageRequest request) {
        // one more than the page: whether there is a next page, without a count
        List<OwnedPaste> rows = dependencies.call(
                DATABASE,
                () -> connections.executeRead(
                        status -> select(status.getConnection(), owner, request.after(), request.limit() + 1)));
        if (rows.size() <= request.limit()) {
            return new OwnedPastesPage(rows, null);
        }
        List<OwnedPaste> page = rows.subList(0, request.limit());
        OwnedPaste last = page.get(page.size() - 1);
        return new OwnedPastesPage(page, new PageCursor(last.createdAt(), last.shortCode()));
    }

    /** The page's statement: the owner's column named by its kind alone, never by anything a client sent. */
    static String statement(Owner owner, boolean afterCursor) {
        String column = switch (owner) {
            case Owner.ApiKey key -> "owner_key_id";
            case Owner.Subject subject -> "user_id";
        };
        return "SELECT " + COLUMNS + " FROM pastes WHERE " + column + " = ?"
                + (afterCursor ? " AND (created_at, short_code) < (?, ?)" : "")
                + " ORDER BY created_at DESC, short_code DESC LIMIT ?";
    }

    private List<OwnedPaste> select(Connection connection, Owner owner, @Nullable PageCursor after, int rows) {
        try (PreparedStatement select = connection.prepareStatement(statement(owner, after != null))) {
            int parameter = 1;
            switch (owner) {
                case Owner.ApiKey key -> select.setObject(parameter++, key.keyId());
                case Owner.Subject subject -> select.setString(parameter++, subject.sub());
            }
            if (after != null) {
                select.setObject(parameter++, OffsetDateTime.ofInstant(after.createdAt(), ZoneOffset.UTC));
                select.setString(parameter++, after.shortCode());
            }
            select.setInt(parameter, rows);
            Instant now = clock.instant();
            List<OwnedPaste> pastes = new ArrayList<>(rows);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    pastes.add(ownedPaste(row, now));
                }
            }
            return pastes;
        } catch (SQLException e) {
            // classified like any database failure: the classifier finds the SQLSTATE in the cause
            throw new DataAccessException("Listing an owner's pastes failed: " + e.getMessage(), e);
        }
    }

    private static OwnedPaste ownedPaste(ResultSet row, Instant now) throws SQLException {
        OffsetDateTime expires = row.getObject("expires_at", OffsetDateTime.class);
        Instant expiresAt = expires == null ? null : expires.toInstant();
        PasteStatus status = PasteStatus.valueOf(row.getString("status"));
        return new OwnedPaste(
                row.getString("short_code"),
                stateOf(status, expiresAt, now),
                row.getObject("created_at", OffsetDateTime.class).toInstant(),
                expiresAt,
                row.getInt("size_bytes"),
                row.getBoolean("read_once"));
    }

    /** As readers find it: an expired paste is gone for them at once, before the sweeper removes it. */
    static OwnedPaste.State stateOf(PasteStatus status, @Nullable Instant expiresAt, Instant now) {
        if (status == PasteStatus.FAILED) {
            return OwnedPaste.State.FAILED;
        }
        if (expiresAt != null && !now.isBefore(expiresAt)) {
            return OwnedPaste.State.EXPIRED;
        }
        return status == PasteStatus.PROCESSED ? OwnedPaste.State.READY : OwnedPaste.State.IN_PROGRESS;
    }
}
