-- The graph is a user's of one organization (SPEC §8): an entity's identity is (org_id, user_id, type,
-- id), so two organizations' "alice" may both have person:bob; mentions are keyed the same way, and the
-- per-user indexes lead with org_id. Both tables are rebuilt (SQLite cannot change a UNIQUE or a primary
-- key in place), keeping every node number, so relationships and mentions still point at their entities.
DROP TRIGGER graph_mentions_memory_ad;

CREATE TABLE graph_entities_by_org (
  node INTEGER PRIMARY KEY,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  properties TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (org_id, user_id, type, id)
);
INSERT INTO graph_entities_by_org (node, org_id, user_id, type, id, name, name_key, properties, created_at, updated_at)
  SELECT node, org_id, user_id, type, id, name, name_key, properties, created_at, updated_at FROM graph_entities;
DROP TABLE graph_entities;
ALTER TABLE graph_entities_by_org RENAME TO graph_entities;

CREATE TABLE graph_mentions_by_org (
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  node INTEGER NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  PRIMARY KEY (org_id, user_id, memory_id, node)
) WITHOUT ROWID;
INSERT INTO graph_mentions_by_org (org_id, user_id, memory_id, node)
  SELECT org_id, user_id, memory_id, node FROM graph_mentions;
DROP TABLE graph_mentions;
ALTER TABLE graph_mentions_by_org RENAME TO graph_mentions;
CREATE INDEX graph_mentions_by_node ON graph_mentions (node, org_id, user_id, memory_id);

DROP INDEX graph_relationships_by_user;
CREATE INDEX graph_relationships_by_user ON graph_relationships (org_id, user_id);

CREATE TRIGGER graph_mentions_memory_ad AFTER DELETE ON memories BEGIN
  DELETE FROM graph_mentions WHERE org_id = old.org_id AND user_id = old.user_id AND memory_id = old.id;
END;
