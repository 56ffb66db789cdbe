-- Delete, expiry, burn after reading and idempotent create (docs/design.md, "Deleting, expiring and reading once").
-- None of them is a state: deleting, expiring or revealing a read-once paste removes its row (and object).

-- SHA-256 (hex) of the paste's deletion token; the token itself is shown once and never stored.
-- NULL for pastes created before tokens existed: they cannot be deleted through the API.
ALTER TABLE pastes ADD COLUMN delete_token_sha256 CHAR(64);
-- When the paste stops being readable; NULL for a paste that does not expire.
ALTER TABLE pastes ADD COLUMN expires_at TIMESTAMPTZ;
-- Burn after reading: the content is handed out once, by POST /pastes/{code}/reveal, and the paste removed.
ALTER TABLE pastes ADD COLUMN read_once BOOLEAN NOT NULL DEFAULT FALSE;

-- The sweeper's scan for expired pastes.
CREATE INDEX pastes_expires_at ON pastes (expires_at) WHERE expires_at IS NOT NULL;

-- Idempotency-Key of POST /pastes, scoped to the caller ('' for anonymous callers), kept 24 h. The paste is
-- not a foreign key: the key outlives a paste that was deleted, expired or read, so that a late retry
-- answers "gone" instead of creating the paste a second time.
CREATE TABLE idempotency_keys (
    caller          VARCHAR(255) NOT NULL,
    idempotency_key VARCHAR(128) NOT NULL,
    -- SHA-256 of the request (content and options): the same key with another request is refused.
    request_sha256  CHAR(64)     NOT NULL,
    short_code      VARCHAR(32)  NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (caller, idempotency_key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
