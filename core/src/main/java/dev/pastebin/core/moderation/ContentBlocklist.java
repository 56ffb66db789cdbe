package dev.pastebin.core.moderation;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.util.List;

/**
 * The content blocklist. {@link #existsById} is create's and the upload worker's check: one probe of the primary
 * key's index, which stays in memory for any blocklist an operator keeps by hand.
 */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface ContentBlocklist extends GenericRepository<BlockedContent, String> {

    boolean existsById(String sha256);

    /** Adds the hash; 0 when it is listed already (the first entry's reason and author stay). */
    @Query("""
            INSERT INTO content_blocklist (sha256, reason, added_by) VALUES (:sha256, :reason, :addedBy)
            ON CONFLICT (sha256) DO NOTHING""")
    int add(String sha256, String reason, String addedBy);

    /** 0 when the hash was not listed. */
    @Query("DELETE FROM content_blocklist WHERE sha256 = :sha256")
    int remove(String sha256);

    /**
     * A page of the blocklist: at most {@code limit} entries whose hashes come after {@code after} ({@code ""}: from
     * the first), in the order of the hashes. Keyset pagination on the primary key: each page is one range scan of
     * its index, whatever page it is, and a cursor stays valid when its own entry is removed meanwhile. The cast
     * keeps the comparison on CHAR(64), the index's type (a text comparison could not use it).
     */
    @Query("""
            SELECT * FROM content_blocklist WHERE sha256 > CAST(:after AS CHAR(64)) ORDER BY sha256 LIMIT :limit""")
    List<BlockedContent> listAfter(String after, int limit);
}
