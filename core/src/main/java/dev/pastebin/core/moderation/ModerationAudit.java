package dev.pastebin.core.moderation;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.util.UUID;

/** The moderation audit: written once per action, read by an operator with SQL; swept past its retention. */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface ModerationAudit extends GenericRepository<AuditEntry, UUID> {

    AuditEntry save(AuditEntry entry);
}
