-- The client a paste's upload job is counted against (docs/design.md, "Fair to every client"): the job's
-- MessageGroupId ('key-<key id>' or 'ip-<hash>'), written with the row. With the upload fairness delay on, a create
-- counts its client's pastes still IN_PROGRESS (queued, delayed, in flight or held) to place its job behind the quiet
-- clients' jobs. NULL for the rows written before, and for large pastes (they have no upload job). The index is
-- partial, over IN_PROGRESS rows only, so it stays as small as the backlog and the count reads the client's entries
-- only; on a large table create it by hand first with CREATE INDEX CONCURRENTLY (same name and definition), and
-- IF NOT EXISTS then skips it here.
ALTER TABLE pastes ADD COLUMN upload_group VARCHAR(128);
CREATE INDEX IF NOT EXISTS pastes_in_progress_by_upload_group ON pastes (upload_group)
    WHERE status = 'IN_PROGRESS' AND upload_group IS NOT NULL;
