-- Memories that stay correct (SPEC §11, docs/MEMORY-UPDATES.md): the key of each memory's normalised
-- text (exact duplicates; filled for existing rows by the migration's code step), which newer memory
-- superseded it, and the facts each memory states with the memory that ended each one.
ALTER TABLE memories ADD COLUMN text_key INTEGER;
ALTER TABLE memories ADD COLUMN superseded_by TEXT;
-- 1 when the memory states facts or superseded another: only then has a delete anything to hand on.
ALTER TABLE memories ADD COLUMN has_facts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX memories_by_text_key ON memories (user_id, text_key);
CREATE INDEX memories_by_successor ON memories (superseded_by, user_id) WHERE superseded_by IS NOT NULL;
CREATE INDEX memories_superseded_of_user ON memories (user_id) WHERE superseded_by IS NOT NULL;

CREATE TABLE memory_facts (
  id INTEGER PRIMARY KEY,
  memory_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  attribute TEXT NOT NULL,
  value TEXT NOT NULL,
  value_key TEXT NOT NULL,
  qualifier TEXT,
  negative INTEGER NOT NULL DEFAULT 0,
  ended_by TEXT
);
CREATE INDEX memory_facts_live ON memory_facts (user_id, agent_id, session_id, subject) WHERE ended_by IS NULL;
CREATE INDEX memory_facts_of_memory ON memory_facts (memory_id);
CREATE INDEX memory_facts_by_ender ON memory_facts (ended_by) WHERE ended_by IS NOT NULL;

-- A deleted memory's facts go with it; what it superseded or ended passes to its own successor, or
-- comes back into force when it had none (deleting "I moved to Lisbon" makes "I live in Berlin" current).
CREATE TRIGGER memories_facts_ad AFTER DELETE ON memories WHEN old.has_facts = 1 BEGIN
  DELETE FROM memory_facts WHERE memory_id = old.id;
  UPDATE memories SET superseded_by = old.superseded_by WHERE superseded_by = old.id;
  UPDATE memory_facts SET ended_by = old.superseded_by WHERE ended_by = old.id;
END;
