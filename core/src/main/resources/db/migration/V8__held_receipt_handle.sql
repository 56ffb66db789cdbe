-- Release on close (docs/design.md, "Circuit breaker"): a held delivery notes the receipt handle of the message it
-- made invisible and when its hold ends, so that the environment whose probe closes the breaker can make those
-- messages visible again at once instead of at their holds' ends. NULL when not held, once released, and once the
-- paste leaves IN_PROGRESS. The partial index keeps the release's scan to the held rows, oldest hold first.
ALTER TABLE pastes ADD COLUMN held_receipt_handle TEXT;
ALTER TABLE pastes ADD COLUMN held_until TIMESTAMPTZ;
CREATE INDEX pastes_held_for_release ON pastes (first_held_at, short_code) WHERE held_receipt_handle IS NOT NULL;
