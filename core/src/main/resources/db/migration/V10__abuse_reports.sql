-- Abuse reports (docs/design.md, "Abuse reports"): POST /pastes/{code}/report stores one row per report, never
-- the paste's content, and asks the operator to be notified at most once per paste per hour (report_notices).
-- The short code is not a foreign key: a report outlives the paste it names (a takedown removes the paste, and
-- the report is the record of why). The sweeper deletes both after pastebin.sweeper.report-retention.
CREATE TABLE abuse_reports (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code          VARCHAR(32)   NOT NULL,
    -- one of the report route's fixed reasons (dev.pastebin.report.ReportReason)
    reason        VARCHAR(32)   NOT NULL,
    -- what the reporter wrote, bounded by the route (pastebin.report.max-text-length)
    text          VARCHAR(2000),
    -- how to reach the reporter, if they said (pastebin.report.max-contact-length)
    contact       VARCHAR(320),
    reported_at   TIMESTAMPTZ   NOT NULL DEFAULT now(),
    -- HMAC-SHA-256 (hex) of the reporter's address: reports from one address can be told apart from many,
    -- the address itself is never stored
    reporter_hash CHAR(64)      NOT NULL
);

CREATE INDEX abuse_reports_code ON abuse_reports (code);
-- the sweeper's retention scan
CREATE INDEX abuse_reports_reported_at ON abuse_reports (reported_at);

-- When the operator was last asked to look at a paste's reports: one notification per paste per hour at most,
-- decided by one conditional upsert (ReportRepository.claimNotice).
CREATE TABLE report_notices (
    code        VARCHAR(32) PRIMARY KEY,
    notified_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX report_notices_notified_at ON report_notices (notified_at);
