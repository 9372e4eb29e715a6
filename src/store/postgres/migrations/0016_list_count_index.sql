-- list_memories' count of a user's visible, current memories reads only this index (an index-only scan
-- where the visibility map allows): superseded_by joins the columns it covers (SQLite migration 25).
DROP INDEX memories_user_agent_expiry;
CREATE INDEX memories_user_agent_expiry ON memories (org_id, user_id, agent_id, expires_at, superseded_by);
