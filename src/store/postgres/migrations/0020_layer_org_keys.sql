-- An immutable record's (type, id) and a mutable key's (namespace, key) belong to one organization each
-- (SPEC §8; SQLite migration 28): two organizations may hold the same key. Row security already bound
-- these tables by organization (migration 2), so a write of a key another organization held was refused;
-- now it is a row of its own. The old organization indexes are the new primary keys.
ALTER TABLE immutable_versions DROP CONSTRAINT immutable_versions_type_id_fkey;
ALTER TABLE immutable_versions DROP CONSTRAINT immutable_versions_pkey;
ALTER TABLE immutable_records DROP CONSTRAINT immutable_records_pkey;
DROP INDEX immutable_by_org;
ALTER TABLE immutable_records ADD PRIMARY KEY (organization_id, type, id);
ALTER TABLE immutable_versions ADD PRIMARY KEY (organization_id, type, id, version);
ALTER TABLE immutable_versions ADD CONSTRAINT immutable_versions_record_fkey FOREIGN KEY (organization_id, type, id)
  REFERENCES immutable_records (organization_id, type, id) ON DELETE CASCADE;
DROP INDEX immutable_by_user;
CREATE INDEX immutable_by_user ON immutable_records (organization_id, user_id) WHERE user_id IS NOT NULL;
DROP INDEX immutable_versions_by_user;
CREATE INDEX immutable_versions_by_user ON immutable_versions (organization_id, user_id) WHERE user_id IS NOT NULL;
ALTER TABLE mutable_entries DROP CONSTRAINT mutable_entries_pkey;
DROP INDEX mutable_by_org;
ALTER TABLE mutable_entries ADD PRIMARY KEY (organization_id, namespace, key);
DROP INDEX mutable_by_user;
CREATE INDEX mutable_by_user ON mutable_entries (organization_id, user_id) WHERE user_id IS NOT NULL;
