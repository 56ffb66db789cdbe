package dev.pastebin.core.moderation;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.util.Optional;

/** The tombstones of taken-down pastes. Looked up by the read routes only when a code has no paste row. */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface TakedownRepository extends GenericRepository<Takedown, String> {

    /** Inserts the tombstone; a second one for the same code raises a {@code DataAccessException}. */
    Takedown save(Takedown takedown);

    Optional<Takedown> findById(String shortCode);

    boolean existsById(String shortCode);
}
