-- An erased user's id is replaced in the audit log and the deletion-request log by a stable pseudonym
-- (SPEC §8 "Audit"; SQLite migration 17): an HMAC of the id under this store's own random key. The key is
-- 32 bytes of two random UUIDs (gen_random_uuid draws from pg_strong_random; 244 random bits).
CREATE TABLE store_secrets (
  name text COLLATE "C" PRIMARY KEY,
  value bytea NOT NULL
);
INSERT INTO store_secrets (name, value)
  VALUES ('pseudonym_key', decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
CREATE INDEX audit_log_by_user ON audit_log (user_id) WHERE user_id IS NOT NULL;
