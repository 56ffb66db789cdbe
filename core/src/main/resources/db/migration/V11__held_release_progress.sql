-- Release on close reaches every held job (docs/design.md, "Circuit breaker"): the release the closing probe begins
-- is shared progress on the breaker's row, which later invocations of the upload function continue until no held
-- delivery is left, whatever one invocation can do before its margin.
--   release_from        the close whose release is not finished; NULL when none is pending
--   release_position    how many held deliveries that release has taken so far: where the next one falls in its
--                       spread over backlog / release-rate seconds
--   release_lease_until the one invocation releasing holds the release until then (its own deadline); NULL: free
ALTER TABLE circuit_breakers ADD COLUMN release_from TIMESTAMPTZ;
ALTER TABLE circuit_breakers ADD COLUMN release_position BIGINT NOT NULL DEFAULT 0;
ALTER TABLE circuit_breakers ADD COLUMN release_lease_until TIMESTAMPTZ;
