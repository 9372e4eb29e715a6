-- Sessions (SPEC §5.8): one row per session of a user in a memory space. The API computes
-- the live state (active/idle/ended) from these timestamps and the space's policy;
-- 'ended' and 'archived' rows are terminal. expires_at is the maxDuration deadline.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  memory_space_id TEXT NOT NULL,
  device TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL CHECK (state IN ('active', 'idle', 'ended', 'archived')),
  created_at INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  ended_at INTEGER,
  end_reason TEXT CHECK (end_reason IN ('explicit', 'max_duration', 'idle_timeout')),
  archived_at INTEGER
);
-- A user's sessions by state, newest first (limits, lists); sweeps by state across users.
CREATE INDEX sessions_by_user ON sessions (user_id, state, created_at DESC, id DESC);
CREATE INDEX sessions_by_state ON sessions (state, memory_space_id, ended_at);
