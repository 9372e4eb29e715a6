-- An erased user's id is replaced in the audit log and the deletion-request log by a stable pseudonym
-- (SPEC §8 "Audit"): an HMAC of the id under this store's own random key, so the same user always maps to
-- the same pseudonym and the id cannot be read back from it. The index finds a user's audit rows.
CREATE TABLE store_secrets (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL
) WITHOUT ROWID;
INSERT INTO store_secrets (name, value) VALUES ('pseudonym_key', randomblob(32));
CREATE INDEX audit_log_by_user ON audit_log (user_id) WHERE user_id IS NOT NULL;
