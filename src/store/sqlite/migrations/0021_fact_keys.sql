-- A scope's live facts are found by organization first (SPEC §8), like its memories (migration 20).
DROP INDEX memory_facts_live;
CREATE INDEX memory_facts_live ON memory_facts (org_id, user_id, agent_id, session_id, subject) WHERE ended_by IS NULL;
