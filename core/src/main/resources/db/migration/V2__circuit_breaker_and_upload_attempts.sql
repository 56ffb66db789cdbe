-- Self-healing (docs/design.md, "Circuit breaker"): the breakers' shared state, and the real S3 attempts of
-- each paste, so that deliveries held by an open breaker do not consume its attempt budget.
ALTER TABLE pastes ADD COLUMN upload_attempts INTEGER NOT NULL DEFAULT 0 CHECK (upload_attempts >= 0);

CREATE TABLE circuit_breakers (
    name              VARCHAR(32)  PRIMARY KEY,
    state             VARCHAR(10)  NOT NULL CHECK (state IN ('CLOSED', 'OPEN', 'HALF_OPEN')),
    -- the current counting window and the one before it (closed state)
    window_started_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    window_calls      INTEGER      NOT NULL DEFAULT 0,
    window_failures   INTEGER      NOT NULL DEFAULT 0,
    previous_calls    INTEGER      NOT NULL DEFAULT 0,
    previous_failures INTEGER      NOT NULL DEFAULT 0,
    -- open / half-open: since when, and when the one probe may start (or counts as lost)
    opened_at         TIMESTAMPTZ,
    next_probe_at     TIMESTAMPTZ,
    cooldown_ms       BIGINT       NOT NULL DEFAULT 0,
    last_cause        VARCHAR(1024),
    updated_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    CONSTRAINT not_closed_has_probe_time CHECK (state = 'CLOSED' OR next_probe_at IS NOT NULL)
);

INSERT INTO circuit_breakers (name, state) VALUES ('s3', 'CLOSED');
