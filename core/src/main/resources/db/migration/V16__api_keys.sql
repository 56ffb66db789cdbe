-- API keys for a private instance (docs/design.md, "Private instances: API keys"): with CreateAccess=api-key every
-- create presents one (Authorization: Bearer pb_...). Only the key's SHA-256 is stored: the operator's command shows
-- the key once, and a database leak gives nobody the power to create. A NULL limit is unlimited.
CREATE TABLE api_keys (
    id            UUID         PRIMARY KEY DEFAULT gen_random_uuid(),
    name          VARCHAR(200) NOT NULL,
    key_sha256    CHAR(64)     NOT NULL UNIQUE,
    created_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    -- set once by `keys revoke`: the next create with the key is refused (every create looks the key up)
    revoked_at    TIMESTAMPTZ,
    daily_pastes  INTEGER      CHECK (daily_pastes >= 0),
    daily_bytes   BIGINT       CHECK (daily_bytes >= 0)
);

-- What each key created per UTC day. A create claims its paste and its bytes here with one upsert that changes the
-- row only while it stays within the key's limits, in the paste's transaction: a create that fails consumes nothing,
-- and concurrent creates on one key are counted exactly (each waits for the other's row lock).
CREATE TABLE api_key_usage (
    key_id  UUID    NOT NULL REFERENCES api_keys (id),
    day     DATE    NOT NULL,
    pastes  INTEGER NOT NULL,
    bytes   BIGINT  NOT NULL,
    PRIMARY KEY (key_id, day)
);

-- The key a paste was created with (never the key itself); NULL for an anonymous paste. Counted per key by the
-- operator's `keys list`, hence the partial index (anonymous pastes are not in it).
ALTER TABLE pastes ADD COLUMN owner_key_id UUID REFERENCES api_keys (id);
CREATE INDEX pastes_owner_key_id ON pastes (owner_key_id) WHERE owner_key_id IS NOT NULL;
