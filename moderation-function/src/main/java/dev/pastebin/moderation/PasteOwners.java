package dev.pastebin.moderation;

import dev.pastebin.core.paste.Paste;
import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.util.Optional;

/** Whose a paste is, as a takedown's audit entry names it (docs/design.md, "Ownership"). */
@JdbcRepository(dialect = Dialect.POSTGRES)
interface PasteOwners extends GenericRepository<Paste, String> {

    /**
     * {@code api-key:<id>} or {@code subject:<sub>}; empty for an anonymous paste or no row. An id and a subject,
     * never a credential.
     */
    @Query("""
            SELECT CASE WHEN owner_key_id IS NOT NULL THEN 'api-key:' || owner_key_id
                        WHEN user_id IS NOT NULL THEN 'subject:' || user_id END
            FROM pastes WHERE short_code = :shortCode""")
    Optional<String> findOwnerLabel(String shortCode);
}
