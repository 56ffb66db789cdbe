-- An idempotent replay of a create answers a deletion token of its own (docs/design.md, "Idempotent create"):
-- the server keeps no token to repeat, and the first response may still be on its way to a client that will
-- use it. So every token a create or its replays answered deletes the paste: the first one's SHA-256 stays in
-- delete_token_sha256, each replay's is appended here. Replays come only from the key's holder within 24 h.
ALTER TABLE pastes ADD COLUMN replay_delete_token_sha256s TEXT[] NOT NULL DEFAULT '{}';
