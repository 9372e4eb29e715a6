-- One index by scope (organization, user, agent, session) with the text key, expiry and successor, in place
-- of two: the duplicate check of an add (SPEC §11) looks the scope's text key up in it, and a user's counts
-- read it alone, as they read the index by user, agent, expiry and successor of migration 25. Each add
-- writes one entry here instead of one in each of two indexes: at 100k memories of 100 users, 16 adds at a
-- time, 5.7 → 4.3 WAL pages per add.
DROP INDEX memories_by_text_key;
DROP INDEX memories_user_agent_expiry;
CREATE INDEX memories_by_scope ON memories (org_id, user_id, agent_id, session_id, text_key, expires_at, superseded_by);
