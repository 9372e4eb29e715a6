-- A user's change counter and vectors belong to the user of one organization (SPEC §8): the counter a
-- node's search cache compares before answering is keyed by (org_id, user_id), so a write by acme's alice
-- no longer bumps (or is read as) another organization's alice; vectors are written with their memory's
-- org_id (a vector stored before this took the migration default: its memory's organization is copied).
ALTER TABLE memory_change_versions DROP CONSTRAINT memory_change_versions_pkey;
ALTER TABLE memory_change_versions ADD PRIMARY KEY (org_id, user_id);
CREATE OR REPLACE FUNCTION engram_memories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_change_versions (org_id, user_id, version)
    SELECT DISTINCT org_id, user_id, 1 FROM changed
    ON CONFLICT (org_id, user_id) DO UPDATE SET version = memory_change_versions.version + 1;
  PERFORM engram_notify('m ' || u) FROM (SELECT DISTINCT user_id AS u FROM changed) c;
  RETURN NULL;
END $$;
UPDATE memory_vectors v SET org_id = m.org_id FROM memories m WHERE m.rowid = v.memory_rowid AND v.org_id <> m.org_id;
