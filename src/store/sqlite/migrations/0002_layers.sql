-- The data layers of SPEC §5.1 besides memories: conversations (append-only), immutable
-- records (every write a new version), mutable key/values (TTL, access times), and the
-- registry of memory spaces that belong to an organization other than the store's.
CREATE TABLE memory_spaces (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  memory_space_id TEXT NOT NULL,
  session_id TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  last_message_at INTEGER NOT NULL,
  archived_at INTEGER
);
CREATE INDEX conversations_by_user ON conversations (user_id, created_at DESC, id DESC);
CREATE INDEX conversations_by_space ON conversations (memory_space_id, created_at);

CREATE TABLE conversation_messages (
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, seq)
) WITHOUT ROWID;

CREATE TABLE immutable_records (
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  user_id TEXT,
  current_version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  accessed_at INTEGER NOT NULL,
  PRIMARY KEY (type, id)
) WITHOUT ROWID;
CREATE INDEX immutable_by_org ON immutable_records (organization_id, type);
CREATE INDEX immutable_by_user ON immutable_records (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE immutable_versions (
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (type, id, version),
  FOREIGN KEY (type, id) REFERENCES immutable_records (type, id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE mutable_entries (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  user_id TEXT,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  accessed_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
CREATE INDEX mutable_by_org ON mutable_entries (organization_id);
CREATE INDEX mutable_by_user ON mutable_entries (user_id) WHERE user_id IS NOT NULL;
