-- When the open S3 circuit breaker first held the paste's upload job (docs/design.md, "Circuit breaker"): a
-- held job's wait is measured from here, not from the paste's creation, so that a job delayed by something
-- else (a backlog, a database outage, a requeued dead letter) still gets its whole hold. Written once, by the
-- first hold; NULL for a paste never held, so a healthy S3 writes nothing more.
ALTER TABLE pastes ADD COLUMN first_held_at TIMESTAMPTZ;
