-- The sweeper's two scans (docs/design.md, "What happens to FAILED rows"), one partial index each:
--   FAILED rows by updated_at: a FAILED row is deleted a retention after it became FAILED, which is its
--     updated_at (a terminal row is never updated again), not a retention after it was created;
--   IN_PROGRESS rows by created_at: stuck rows.
-- They replace the (status, created_at) index that served both scans by creation time.
-- Building an index blocks inserts while it reads the table. On a large table create the two indexes by hand
-- first with CREATE INDEX CONCURRENTLY (same names and definitions); IF NOT EXISTS then skips them here.
CREATE INDEX IF NOT EXISTS pastes_failed_updated_at ON pastes (updated_at) WHERE status = 'FAILED';
CREATE INDEX IF NOT EXISTS pastes_in_progress_created_at ON pastes (created_at) WHERE status = 'IN_PROGRESS';
DROP INDEX IF EXISTS pastes_status_created_at;
