-- The files of a large paste (docs/design.md, "Large files: straight to S3"): their bytes go from the client
-- straight to S3 (staging/<file_id>) with a pre-signed PUT, and the upload worker verifies each one (size and
-- SHA-256 against what the create declared) and moves it to files/<file_id> before the paste becomes PROCESSED.
-- A small paste has no row here. file_id is '<short_code>/<position>', the file's key under both prefixes, so an
-- S3 event's key names its row directly. The rows go with their paste (ON DELETE CASCADE: every way of removing a
-- paste removes its row; referential actions run as the table's owner, so the removing roles need no grant here).
CREATE TABLE paste_files (
    file_id       VARCHAR(64)   PRIMARY KEY,
    short_code    VARCHAR(32)   NOT NULL REFERENCES pastes (short_code) ON DELETE CASCADE,
    position      SMALLINT      NOT NULL CHECK (position >= 0),
    name          VARCHAR(255)  NOT NULL,
    size_bytes    BIGINT        NOT NULL CHECK (size_bytes > 0),
    sha256        CHAR(64)      NOT NULL,
    content_type  VARCHAR(255)  NOT NULL,
    -- STAGED: declared, its bytes not verified yet; VERIFIED: checked and moved to its final key
    state         VARCHAR(16)   NOT NULL DEFAULT 'STAGED' CHECK (state IN ('STAGED', 'VERIFIED')),
    verified_at   TIMESTAMPTZ,
    CONSTRAINT paste_files_position UNIQUE (short_code, position),
    CONSTRAINT verified_has_time CHECK (state <> 'VERIFIED' OR verified_at IS NOT NULL)
);
