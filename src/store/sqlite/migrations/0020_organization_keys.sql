-- Per-user reads name the organization first (SPEC §8): the user indexes of memories lead with org_id,
-- and the per-user bookkeeping is keyed by (org_id, user_id): the keyword index's owner numbers (kept
-- as they were, so no memory is indexed again) and the memory counts.
DROP INDEX memories_by_user;
CREATE INDEX memories_by_user ON memories (org_id, user_id, created_at DESC, rowid DESC);
DROP INDEX memories_user_agent_expiry;
CREATE INDEX memories_user_agent_expiry ON memories (org_id, user_id, agent_id, expires_at);
DROP INDEX memories_by_text_key;
CREATE INDEX memories_by_text_key ON memories (org_id, user_id, text_key);
DROP INDEX memories_superseded_of_user;
CREATE INDEX memories_superseded_of_user ON memories (org_id, user_id) WHERE superseded_by IS NOT NULL;

CREATE TABLE fts_owners_by_org (
  id INTEGER PRIMARY KEY,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  UNIQUE (org_id, user_id)
);
INSERT INTO fts_owners_by_org (id, org_id, user_id) SELECT id, org_id, user_id FROM fts_owners;
DROP TABLE fts_owners;
ALTER TABLE fts_owners_by_org RENAME TO fts_owners;

DROP TRIGGER memory_counts_ai;
DROP TRIGGER memory_counts_ad;
DROP TABLE memory_counts;
CREATE TABLE memory_counts (
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (org_id, user_id)
) WITHOUT ROWID;
INSERT INTO memory_counts (org_id, user_id, n) SELECT org_id, user_id, count(*) FROM memories GROUP BY org_id, user_id;
CREATE TRIGGER memory_counts_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memory_counts (org_id, user_id, n) VALUES (new.org_id, new.user_id, 1)
    ON CONFLICT (org_id, user_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER memory_counts_ad AFTER DELETE ON memories BEGIN
  UPDATE memory_counts SET n = n - 1 WHERE org_id = old.org_id AND user_id = old.user_id;
  DELETE FROM memory_counts WHERE org_id = old.org_id AND user_id = old.user_id AND n <= 0;
END;
