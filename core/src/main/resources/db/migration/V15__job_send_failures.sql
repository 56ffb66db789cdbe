-- How many of a paste's job senders failed to send it (docs/design.md, "Idempotent create"). Its senders are the
-- create and each replay of it that found it IN_PROGRESS (1 + cardinality(replay_delete_token_sha256s): a replay
-- adds its token before it sends). A sender whose send fails counts itself here, and the one that brings the count
-- to the number of senders marks the row FAILED in the same UPDATE: no job exists for it. Before this, a paste whose
-- create and replay both failed to send waited IN_PROGRESS, with no job, until the sweeper's stuck threshold.
-- A constant default: no table rewrite, and a create's INSERT leaves the column to it.
ALTER TABLE pastes ADD COLUMN job_send_failures INT NOT NULL DEFAULT 0;
