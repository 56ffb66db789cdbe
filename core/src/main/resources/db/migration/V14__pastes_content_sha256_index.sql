-- The codes holding a content's hash (review finding M3): a takedown that blocks the content takes down every code
-- whose row holds it, and the operator's `copies` command and `block` list them. Without this index each was a
-- scan of every paste. A plain CREATE INDEX: Flyway runs each migration in one transaction, which CREATE INDEX
-- CONCURRENTLY refuses; it locks writes to pastes while it builds.
CREATE INDEX pastes_content_sha256 ON pastes (content_sha256);
