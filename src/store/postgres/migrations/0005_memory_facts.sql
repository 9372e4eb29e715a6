-- Memories that stay correct (SPEC §11), as the SQLite store's migration 13: each memory's text key
-- (exact duplicates; rows stored before this migration have none and are not found as duplicates),
-- which newer memory superseded it, and the facts each memory states with the memory that ended each.
ALTER TABLE memories ADD COLUMN text_key bigint;
ALTER TABLE memories ADD COLUMN superseded_by text COLLATE "C";
-- 1 when the memory states facts or superseded another: only then has a delete anything to hand on.
ALTER TABLE memories ADD COLUMN has_facts integer NOT NULL DEFAULT 0;
CREATE INDEX memories_by_text_key ON memories (user_id, text_key);
CREATE INDEX memories_by_successor ON memories (superseded_by, user_id) WHERE superseded_by IS NOT NULL;
CREATE INDEX memories_superseded_of_user ON memories (user_id) WHERE superseded_by IS NOT NULL;

CREATE TABLE memory_facts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  memory_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  agent_id text COLLATE "C" NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  subject text COLLATE "C" NOT NULL,
  attribute text COLLATE "C" NOT NULL,
  value text NOT NULL,
  value_key text COLLATE "C" NOT NULL,
  qualifier text COLLATE "C",
  -- 0/1 as in SQLite, so engram migrate-store copies and compares the rows as they are.
  negative integer NOT NULL DEFAULT 0,
  ended_by text COLLATE "C"
);
CREATE INDEX memory_facts_live ON memory_facts (user_id, agent_id, session_id, subject) WHERE ended_by IS NULL;
CREATE INDEX memory_facts_of_memory ON memory_facts (memory_id);
CREATE INDEX memory_facts_by_ender ON memory_facts (ended_by) WHERE ended_by IS NOT NULL;
CREATE POLICY by_user ON memory_facts USING (engram_sees_user(user_id));
ALTER TABLE memory_facts ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;

-- A deleted memory's facts go with it; what it superseded or ended passes to its own successor, or
-- comes back into force when it had none (deleting "I moved to Lisbon" makes "I live in Berlin" current).
CREATE FUNCTION engram_memory_facts_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM memory_facts f USING changed c WHERE c.has_facts = 1 AND f.user_id = c.user_id AND f.memory_id = c.id;
  UPDATE memories m SET superseded_by = c.superseded_by FROM changed c
    WHERE c.has_facts = 1 AND m.user_id = c.user_id AND m.superseded_by = c.id;
  UPDATE memory_facts f SET ended_by = c.superseded_by FROM changed c
    WHERE c.has_facts = 1 AND f.user_id = c.user_id AND f.ended_by = c.id;
  RETURN NULL;
END $$;
CREATE TRIGGER memories_facts_deleted AFTER DELETE ON memories REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_facts_gone();
