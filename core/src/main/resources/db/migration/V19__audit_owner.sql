-- A takedown names the paste's owner in its audit entry (docs/design.md, "Ownership"): 'api-key:<the key's id>' or
-- 'subject:<the signed-in sub>', never a credential; NULL for an anonymous paste and for the other actions. A subject
-- is at most 255 characters (V17), so the label fits.
ALTER TABLE moderation_audit ADD COLUMN owner VARCHAR(300);
