-- A user's conversations and sessions are found by organization first (SPEC §8; SQLite migration 22).
DROP INDEX conversations_by_user;
CREATE INDEX conversations_by_user ON conversations (org_id, user_id, created_at DESC, id DESC);
DROP INDEX sessions_by_user;
CREATE INDEX sessions_by_user ON sessions (org_id, user_id, state, created_at DESC, id DESC);
