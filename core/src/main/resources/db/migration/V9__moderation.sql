-- Operator moderation (docs/design.md, "Takedowns and the blocklist"). Nothing here holds a paste's content: a
-- takedown keeps only the content's hash and size, so that the operator can prove afterwards what was removed.

-- The tombstone of a paste an operator took down (or the upload worker refused for blocklisted content): while it
-- exists, every read route answers 451 for the code instead of 404. Looked up only when no paste row exists.
-- Kept for the moderation retention (the sweeper deletes older ones; the code then answers 404).
CREATE TABLE takedowns (
    short_code      VARCHAR(32)  PRIMARY KEY,
    reason          TEXT         NOT NULL,
    requested_by    VARCHAR(512) NOT NULL,
    taken_down_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    content_sha256  CHAR(64)     NOT NULL,
    content_size    INTEGER      NOT NULL
);
CREATE INDEX takedowns_taken_down_at ON takedowns (taken_down_at);

-- Content SHA-256s that create refuses (451) and the upload worker refuses when already queued. The primary key
-- is the lookup create makes: one index probe per create.
CREATE TABLE content_blocklist (
    sha256    CHAR(64)     PRIMARY KEY,
    reason    TEXT         NOT NULL,
    added_by  VARCHAR(512) NOT NULL,
    added_at  TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- Every moderation action: who (as the invoker stated it; CloudTrail holds the authenticated record), when, why,
-- on what (a code and/or a hash, with the content's size when known). Never the content.
CREATE TABLE moderation_audit (
    id              UUID         PRIMARY KEY DEFAULT gen_random_uuid(),
    action          VARCHAR(20)  NOT NULL
                    CHECK (action IN ('takedown', 'block', 'unblock', 'upload-refused')),
    actor           VARCHAR(512) NOT NULL,
    acted_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    reason          TEXT         NOT NULL,
    short_code      VARCHAR(32),
    content_sha256  CHAR(64),
    content_size    INTEGER
);
CREATE INDEX moderation_audit_acted_at ON moderation_audit (acted_at);
