-- Identity keys (SPEC §8): each belongs to one organization, has a role and an optional user and
-- agent binding; only a SHA-256 digest of its secret is kept (identity/key-format.ts says why).
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member', 'reader')),
  user_id TEXT,
  agent_id TEXT,
  name TEXT,
  secret_hash BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX api_keys_by_org ON api_keys (org_id, created_at DESC);
