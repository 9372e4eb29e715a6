-- Identity keys (SPEC §8), as in the SQLite store's api_keys: each belongs to one organization, has a
-- role and an optional user and agent binding; only a SHA-256 digest of its secret is kept. No
-- row-level policy: authentication looks a key up by id before it knows the organization, and every
-- query a client asks for names its organization (key-repo.ts).
CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  org_id text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL CHECK (role IN ('admin', 'member', 'reader')),
  user_id text COLLATE "C",
  agent_id text COLLATE "C",
  name text,
  secret_hash bytea NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint,
  last_used_at bigint,
  revoked_at bigint
);
CREATE INDEX api_keys_by_org ON api_keys (org_id, created_at DESC);
