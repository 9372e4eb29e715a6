-- The vector layer's memories (SPEC §2, §5.1): one row per memory, its previous versions,
-- and an FTS5 index kept in sync by triggers.
CREATE TABLE memories (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  session_id TEXT NOT NULL DEFAULT '',
  memory TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  importance INTEGER NOT NULL DEFAULT 50,
  source_type TEXT NOT NULL DEFAULT 'tool',
  expires_at INTEGER,
  conversation_ref TEXT,
  immutable_ref TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX memories_by_user ON memories (user_id, created_at DESC, rowid DESC);
CREATE INDEX memories_by_agent ON memories (agent_id);

CREATE TABLE memory_versions (
  memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  memory TEXT NOT NULL,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (memory_id, version)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE memories_fts USING fts5 (
  memory,
  content = 'memories',
  content_rowid = 'rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts (rowid, memory) VALUES (new.rowid, new.memory);
END;
CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, memory) VALUES ('delete', old.rowid, old.memory);
END;
CREATE TRIGGER memories_fts_au AFTER UPDATE OF memory ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, memory) VALUES ('delete', old.rowid, old.memory);
  INSERT INTO memories_fts (rowid, memory) VALUES (new.rowid, new.memory);
END;

-- Which embedding model produced each memory's current vector (vectors live in vec0 tables
-- named per model, created at run time because their dimension depends on the model).
CREATE TABLE memory_embeddings (
  memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
  model TEXT NOT NULL
);
CREATE INDEX memory_embeddings_by_model ON memory_embeddings (model);
