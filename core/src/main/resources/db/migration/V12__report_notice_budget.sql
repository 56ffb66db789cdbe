-- Bounds on the operator's abuse notifications (docs/design.md, "Abuse reports"): besides one per paste per hour
-- (report_notices), at most pastebin.report.notify-budget an hour in all, and at most
-- pastebin.report.notify-per-reporter an hour from one reporter. Each is decided by one upsert on a counter row
-- of the hour (ReportRepository). The sweeper deletes the rows after pastebin.sweeper.report-retention.

-- One row per UTC hour in which a report claimed a notification.
CREATE TABLE report_notice_hours (
    -- the hour's start (UTC)
    hour       TIMESTAMPTZ PRIMARY KEY,
    -- reports that claimed a paste's notice this hour, in order: the first `budget` were sent, the next one sent
    -- the notice that the budget is spent, and claims - budget pastes were stored without a notice
    claims     INTEGER     NOT NULL,
    -- the budget in force when the hour's first claim was made
    budget     INTEGER     NOT NULL,
    -- true once the digest with the count of the pastes past the budget was sent (by a report of a later hour)
    summarised BOOLEAN     NOT NULL DEFAULT false
);

-- The digest's scan: hours past their budget whose count is not sent yet.
CREATE INDEX report_notice_hours_unsummarised ON report_notice_hours (hour) WHERE NOT summarised;

-- Notifications one reporter (abuse_reports.reporter_hash) claimed in an hour.
CREATE TABLE report_reporter_hours (
    reporter_hash CHAR(64)    NOT NULL,
    hour          TIMESTAMPTZ NOT NULL,
    notices       INTEGER     NOT NULL,
    PRIMARY KEY (reporter_hash, hour)
);

-- the sweeper's retention scan
CREATE INDEX report_reporter_hours_hour ON report_reporter_hours (hour);

-- What a report did about the operator: 'sent' (it asked for the paste's notification), 'repeat' (the paste was
-- notified within the interval), 'reporter-cap' (its reporter had used their notifications of the hour) or
-- 'over-budget' (the hour's budget was spent). NULL for reports stored before this column.
ALTER TABLE abuse_reports ADD COLUMN notice VARCHAR(16);
