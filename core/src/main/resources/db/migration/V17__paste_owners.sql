-- Ownership (docs/design.md, "Ownership"): a paste created with an API key belongs to that key (owner_key_id, V16);
-- one created by an OpenID Connect principal (CreateAccess=oidc) belongs to the token's `sub` claim, which V1's
-- user_id already holds as the issuer gave it (one issuer per instance, so `sub` alone names the principal). Never a
-- token: a database leak gives nobody the power to act as the owner. NULL for an anonymous paste; at most one owner.
-- NOT VALID: the check is enforced on every row written from now on, without a scan of the table under its lock.
ALTER TABLE pastes ADD CONSTRAINT pastes_one_owner CHECK (owner_key_id IS NULL OR user_id IS NULL) NOT VALID;

-- The owner's listing is a keyset page, newest first: (created_at, short_code) < the cursor's, in this order, one
-- index range scan per page whatever the page's depth. Partial: anonymous pastes are never listed. The first
-- replaces V16's pastes_owner_key_id, whose lookups (`keys list`'s counts) it serves as well. Both are small (owned
-- pastes only); on a large table create them by hand first with CREATE INDEX CONCURRENTLY (same names and
-- definitions), and IF NOT EXISTS then skips them here.
CREATE INDEX IF NOT EXISTS pastes_owner_key_id_listing ON pastes (owner_key_id, created_at DESC, short_code DESC)
    WHERE owner_key_id IS NOT NULL;
DROP INDEX IF EXISTS pastes_owner_key_id;
CREATE INDEX IF NOT EXISTS pastes_user_id_listing ON pastes (user_id, created_at DESC, short_code DESC)
    WHERE user_id IS NOT NULL;
