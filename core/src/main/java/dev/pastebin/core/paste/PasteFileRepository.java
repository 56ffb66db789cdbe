package dev.pastebin.core.paste;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.GenericRepository;
import java.util.List;
import java.util.Optional;

/** The files of large pastes ({@link PasteFile}); a small paste has none. */
@JdbcRepository(dialect = Dialect.POSTGRES)
public interface PasteFileRepository extends GenericRepository<PasteFile, String> {

    PasteFile save(PasteFile file);

    Optional<PasteFile> findById(String fileId);

    List<PasteFile> findByShortCodeOrderByPosition(String shortCode);

    /** Marks a staged file verified; 0 when it already was (a redelivered event) or is gone. */
    @Query("""
            UPDATE paste_files SET state = 'VERIFIED', verified_at = now()
            WHERE file_id = :fileId AND state = 'STAGED'""")
    int markVerified(String fileId);

    /**
     * Records the SHA-256 of a staged file whose create declared none ({@link PasteFile#UNDECLARED_SHA256}), before
     * it is checked against the blocklist and moved; 0 when it was declared, is verified or is gone.
     */
    @Query("""
            UPDATE paste_files SET sha256 = :sha256
            WHERE file_id = :fileId AND state = 'STAGED' AND sha256 = repeat('0', 64)""")
    int recordUndeclaredSha256(String fileId, String sha256);

    /** How many of the paste's files are not verified yet. */
    @Query("SELECT count(*) FROM paste_files WHERE short_code = :shortCode AND state <> 'VERIFIED'")
    long countUnverified(String shortCode);
}
