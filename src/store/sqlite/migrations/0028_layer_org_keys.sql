-- An immutable record's (type, id) and a mutable key's (namespace, key) belong to one organization each
-- (SPEC §8): two organizations may hold the same key, and a write never learns that another one does.
-- The three tables are rebuilt (SQLite cannot change a primary key in place); versions now name their
-- record's organization. Rows keep the organization they had (migration 2 already stored it).
CREATE TABLE immutable_records_by_org (
  organization_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  current_version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  accessed_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, type, id)
) WITHOUT ROWID;
INSERT INTO immutable_records_by_org (organization_id, type, id, user_id, current_version, created_at, updated_at, accessed_at)
  SELECT organization_id, type, id, user_id, current_version, created_at, updated_at, accessed_at FROM immutable_records;

CREATE TABLE immutable_versions_by_org (
  organization_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  retain_until INTEGER,
  user_id TEXT,
  PRIMARY KEY (organization_id, type, id, version),
  FOREIGN KEY (organization_id, type, id) REFERENCES immutable_records (organization_id, type, id) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO immutable_versions_by_org (organization_id, type, id, version, data, metadata, created_at, retain_until, user_id)
  SELECT r.organization_id, v.type, v.id, v.version, v.data, v.metadata, v.created_at, v.retain_until, v.user_id
  FROM immutable_versions v JOIN immutable_records r ON r.type = v.type AND r.id = v.id;

DROP TABLE immutable_versions;
DROP TABLE immutable_records;
ALTER TABLE immutable_records_by_org RENAME TO immutable_records;
ALTER TABLE immutable_versions_by_org RENAME TO immutable_versions;
CREATE INDEX immutable_by_user ON immutable_records (organization_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX immutable_versions_by_user ON immutable_versions (organization_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE mutable_entries_by_org (
  organization_id TEXT NOT NULL,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  user_id TEXT,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  accessed_at INTEGER NOT NULL,
  expires_at INTEGER,
  retain_until INTEGER,
  PRIMARY KEY (organization_id, namespace, key)
) WITHOUT ROWID;
INSERT INTO mutable_entries_by_org (organization_id, namespace, key, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until)
  SELECT organization_id, namespace, key, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until FROM mutable_entries;
DROP TABLE mutable_entries;
ALTER TABLE mutable_entries_by_org RENAME TO mutable_entries;
CREATE INDEX mutable_by_user ON mutable_entries (organization_id, user_id) WHERE user_id IS NOT NULL;
