-- list_memories answers `total` on every page with a count of the user's visible, current memories
-- (superseded_by IS NULL): without superseded_by in the index the count read every row of the user from
-- the table (1k memories: 260 → 79 µs). The same index with superseded_by last covers it, and serves
-- every statement the index without it did (same leading columns).
DROP INDEX memories_user_agent_expiry;
CREATE INDEX memories_user_agent_expiry ON memories (org_id, user_id, agent_id, expires_at, superseded_by);
