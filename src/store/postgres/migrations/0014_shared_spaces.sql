-- Shared spaces of an organization (SPEC §8; SQLite migration 23) and their members. A space's memories
-- are ordinary memories under the space's reserved owner ('space:<id>'). Row-level security keys both
-- tables on the transaction's organization, as every table that belongs to one.
CREATE TABLE shared_spaces (
  org_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  created_at bigint NOT NULL,
  created_by text COLLATE "C",
  PRIMARY KEY (org_id, id)
);
CREATE TABLE shared_space_members (
  org_id text COLLATE "C" NOT NULL,
  space_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL CHECK (role IN ('writer', 'reader')),
  PRIMARY KEY (org_id, space_id, user_id)
);
CREATE INDEX shared_space_members_by_user ON shared_space_members (org_id, user_id);
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['shared_spaces', 'shared_space_members']
  LOOP
    EXECUTE format('CREATE POLICY by_org ON %I USING (engram_sees_org(org_id))', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', t);
  END LOOP;
END $$;
