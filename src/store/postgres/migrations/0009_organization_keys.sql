-- Per-user reads name the organization first (SPEC §8; SQLite migration 20): the user indexes of
-- memories lead with org_id.
DROP INDEX memories_by_user;
CREATE INDEX memories_by_user ON memories (org_id, user_id, created_at DESC, rowid DESC);
DROP INDEX memories_user_agent_expiry;
CREATE INDEX memories_user_agent_expiry ON memories (org_id, user_id, agent_id, expires_at);
DROP INDEX memories_by_text_key;
CREATE INDEX memories_by_text_key ON memories (org_id, user_id, text_key);
DROP INDEX memories_superseded_of_user;
CREATE INDEX memories_superseded_of_user ON memories (org_id, user_id) WHERE superseded_by IS NOT NULL;
