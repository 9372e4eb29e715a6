-- Shared spaces of an organization (SPEC §8) and their members. A space's memories are ordinary
-- memories stored under the space's reserved owner ('space:<id>', agent_id = the space id), so every
-- index, isolation path and the policy hierarchy (the space id is its memory space) serve them as they are.
CREATE TABLE shared_spaces (
  org_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  created_by TEXT,
  PRIMARY KEY (org_id, id)
) WITHOUT ROWID;
CREATE TABLE shared_space_members (
  org_id TEXT NOT NULL,
  space_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('writer', 'reader')),
  PRIMARY KEY (org_id, space_id, user_id)
) WITHOUT ROWID;
-- "The spaces alice belongs to" (include_shared, GET /spaces as a member).
CREATE INDEX shared_space_members_by_user ON shared_space_members (org_id, user_id);
