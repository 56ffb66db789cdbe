-- One database role per function, with only the privileges its statements need (docs/operating.md, "Database roles").
-- The migration function (migrate-function, the stack's DatabaseSchema resource) applies it as the schema's owner on
-- every deploy, after the migrations, then gives each role LOGIN and its secret's password. A database managed by
-- hand runs it once per release as its owner, after the migrations:
--   psql "$OWNER_URL" -v ON_ERROR_STOP=1 -f core/src/main/resources/db/roles.sql
-- then gives each role a password (\password pastebin_read, ...) and puts it in that function's secret.
-- A new function is one more line in the VALUES list; DatabaseRolesIT (core) checks the result.
--
-- Each role listed ends with exactly the privileges listed, on the tables and sequences of the schema the
-- unqualified names below resolve to (current_schema()): everything it held there is revoked, then what is listed
-- granted. So a privilege a release no longer lists (or one granted by hand) is gone after the next apply. Drop one
-- from the list only in the release after the one whose code stopped using it: the previous release's functions
-- keep running with these grants until the deploy ends.
-- The DO block is one statement, so one transaction (the migration function also applies it inside its own):
-- GRANT and REVOKE are transactional in PostgreSQL, and no other session sees a role between its revoke and its
-- grants; a failure leaves every role as it was.
DO $$
DECLARE
    g record;
    cleared text;
BEGIN
    FOR g IN SELECT * FROM (VALUES
        -- role              privileges                tables
        ('pastebin_create',  'SELECT, INSERT, UPDATE', 'pastes'),
        ('pastebin_create',  'SELECT, INSERT, UPDATE, DELETE', 'idempotency_keys'),
        -- a blocklisted body is refused (451) before its row is inserted
        ('pastebin_create',  'SELECT',                 'content_blocklist'),
        -- takedowns: a code with no row is looked up there (451 instead of 404)
        ('pastebin_read',    'SELECT',                 'pastes, circuit_breakers, takedowns'),
        -- a database managed by hand: the migration function checks its schema version as this role
        ('pastebin_read',    'SELECT',                 'flyway_schema_history'),
        -- DELETE, INSERT on takedowns and moderation_audit: a queued job whose content is blocklisted removes its
        -- row and leaves a tombstone and an audit entry (upload-refused)
        ('pastebin_upload',  'SELECT, UPDATE, DELETE', 'pastes'),
        ('pastebin_upload',  'SELECT',                 'content_blocklist'),
        ('pastebin_upload',  'INSERT',                 'takedowns, moderation_audit'),
        -- INSERT: a breaker named for the first time creates its row (the migration creates "s3")
        ('pastebin_upload',  'SELECT, INSERT, UPDATE', 'circuit_breakers'),
        ('pastebin_sweeper', 'SELECT, UPDATE, DELETE', 'pastes'),
        ('pastebin_sweeper', 'SELECT, DELETE',         'idempotency_keys'),
        -- dead letters are requeued only while the S3 breaker is closed
        ('pastebin_sweeper', 'SELECT',                 'circuit_breakers'),
        -- tombstones and audit entries past the moderation retention
        ('pastebin_sweeper', 'SELECT, DELETE',         'takedowns, moderation_audit'),
        -- the sweep epoch: read and advanced (SELECT ... FOR UPDATE) by each reconciling sweep
        ('pastebin_sweeper', 'SELECT, UPDATE',         'sweeper_epoch'),
        -- UPDATE: a reveal locks the row (SELECT ... FOR UPDATE) before it removes it
        ('pastebin_remove',  'SELECT, UPDATE, DELETE', 'pastes'),
        -- an IN_PROGRESS read-once paste's Retry-After reads the S3 breaker's next probe, as read does
        ('pastebin_remove',  'SELECT',                 'circuit_breakers'),
        -- a reveal of a code with no row answers 451 when it was taken down
        ('pastebin_remove',  'SELECT',                 'takedowns'),
        -- a report names a readable paste; it is stored, and claims the paste's hourly notice (an upsert)
        ('pastebin_report',  'SELECT',                 'pastes'),
        ('pastebin_report',  'INSERT',                 'abuse_reports'),
        ('pastebin_report',  'SELECT, INSERT, UPDATE', 'report_notices'),
        -- the hour's notification budget and each reporter's notices of the hour are counted by upserts; the
        -- digests of earlier hours are claimed by an UPDATE that locks their rows (SELECT ... FOR UPDATE)
        ('pastebin_report',  'SELECT, INSERT, UPDATE', 'report_notice_hours, report_reporter_hours'),
        -- reports, notices and the hourly counters older than the retention are deleted
        ('pastebin_sweeper', 'SELECT, DELETE',         'abuse_reports, report_notices'),
        ('pastebin_sweeper', 'SELECT, DELETE',         'report_notice_hours, report_reporter_hours'),
        -- the operator's takedown removes the row whatever its state (locking it first) and leaves a tombstone,
        -- blocklist entries and the audit; it never reads the content
        ('pastebin_moderation', 'SELECT, UPDATE, DELETE', 'pastes'),
        ('pastebin_moderation', 'SELECT, INSERT',      'takedowns, moderation_audit'),
        ('pastebin_moderation', 'SELECT, INSERT, DELETE', 'content_blocklist'),
        -- CreateAccess=api-key: every create looks its key up, and claims the day's usage with one upsert
        -- (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) that also records the key on the paste (UPDATE on pastes)
        ('pastebin_create',  'SELECT',                 'api_keys'),
        ('pastebin_create',  'SELECT, INSERT, UPDATE', 'api_key_usage'),
        ('pastebin_privatebin', 'SELECT',              'api_keys'),
        ('pastebin_privatebin', 'SELECT, INSERT, UPDATE', 'api_key_usage'),
        -- an owner's routes (GET /me/pastes, DELETE /me/pastes/{code}) look the caller's key up as a create does
        ('pastebin_read',    'SELECT',                 'api_keys'),
        ('pastebin_remove',  'SELECT',                 'api_keys'),
        -- the operator's keys create, list (with today's usage and each key's paste count) and revoke
        ('pastebin_moderation', 'SELECT, INSERT, UPDATE', 'api_keys'),
        ('pastebin_moderation', 'SELECT',              'api_key_usage'),
        -- PrivateBin's clients: a create (the row; FAILED when its job cannot be queued), a read, burn after reading
        -- (a reveal locks the row before it removes it) and a delete with the token; the blocklist and tombstones
        -- are looked up as the create, read and remove functions look them up. No idempotency keys: the protocol
        -- sends none
        ('pastebin_privatebin', 'SELECT, INSERT, UPDATE, DELETE', 'pastes'),
        ('pastebin_privatebin', 'SELECT',              'content_blocklist, takedowns'),
        -- large pastes' files (docs/design.md, "Large files: straight to S3"): declared by the create, verified by
        -- the upload worker, listed by the read (its redirect), the removals and the sweeper (their objects)
        ('pastebin_create',  'SELECT, INSERT',         'paste_files'),
        ('pastebin_upload',  'SELECT, UPDATE',         'paste_files'),
        ('pastebin_read',    'SELECT',                 'paste_files'),
        ('pastebin_remove',  'SELECT',                 'paste_files'),
        ('pastebin_sweeper', 'SELECT',                 'paste_files'),
        ('pastebin_moderation', 'SELECT',              'paste_files'),
        ('pastebin_privatebin', 'SELECT',              'paste_files')
    ) AS grants (role, privileges, tables)
    ORDER BY role
    LOOP
        -- a role's first line: create it, or take away all it holds, before its grants
        IF g.role IS DISTINCT FROM cleared THEN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = g.role) THEN
                EXECUTE format('CREATE ROLE %I LOGIN', g.role);
            END IF;
            -- a table's REVOKE ALL takes its columns' privileges too
            EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM %I', current_schema(), g.role);
            EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA %I FROM %I', current_schema(), g.role);
            cleared := g.role;
        END IF;
        EXECUTE format('GRANT %s ON %s TO %I', g.privileges, g.tables, g.role);
    END LOOP;
END
$$;
