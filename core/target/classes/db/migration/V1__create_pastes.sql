-- The paste row and its state machine (seed 003). IN_PROGRESS -> PROCESSED | FAILED, both terminal.
CREATE TABLE pastes (
    short_code      VARCHAR(32)  PRIMARY KEY,
    user_id         VARCHAR(255),
    content_sha256  CHAR(64)     NOT NULL,
    size_bytes      INTEGER      NOT NULL CHECK (size_bytes > 0),
    s3_location     VARCHAR(1024),
    status          VARCHAR(20)  NOT NULL DEFAULT 'IN_PROGRESS'
                    CHECK (status IN ('IN_PROGRESS', 'PROCESSED', 'FAILED')),
    failure_reason  VARCHAR(1024),
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    -- A readable paste always knows where its content is.
    CONSTRAINT processed_has_location CHECK (status <> 'PROCESSED' OR s3_location IS NOT NULL)
);

-- The sweeper's scans: FAILED rows by age, and IN_PROGRESS rows by age (stuck-row reconciliation).
CREATE INDEX pastes_status_created_at ON pastes (status, created_at)
    WHERE status IN ('FAILED', 'IN_PROGRESS');
