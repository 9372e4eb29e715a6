-- The PostgreSQL store's tables: the same families and columns as the SQLite store's (store/sqlite/
-- migrations, as of its migration 11), in PostgreSQL's types. Times are epoch milliseconds (bigint).
-- Child tables carry their owner's user_id (or organization) so row-level security (0002) can check
-- every row without a join. JSON stays text, so answers keep the bytes clients sent. Text compares and
-- sorts byte by byte (COLLATE "C"), as in SQLite, whatever the database's locale.

CREATE TABLE memories (
  rowid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  user_id text COLLATE "C" NOT NULL,
  agent_id text COLLATE "C" NOT NULL,
  session_id text COLLATE "C" NOT NULL DEFAULT '',
  memory text COLLATE "C" NOT NULL,
  metadata text COLLATE "C" NOT NULL DEFAULT '{}',
  importance integer NOT NULL DEFAULT 50,
  source_type text COLLATE "C" NOT NULL DEFAULT 'tool',
  expires_at bigint,
  conversation_ref text COLLATE "C",
  immutable_ref text COLLATE "C",
  version integer NOT NULL DEFAULT 1,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  retain_until bigint,
  -- Keyword search (store/postgres/search-repo.ts): English stemming and stopwords, ranked by ts_rank_cd.
  fts tsvector GENERATED ALWAYS AS (to_tsvector('english', memory)) STORED
);
CREATE INDEX memories_by_user ON memories (user_id, created_at DESC, rowid DESC);
CREATE INDEX memories_user_agent_expiry ON memories (user_id, agent_id, expires_at);
CREATE INDEX memories_by_agent ON memories (agent_id, rowid);
CREATE INDEX memories_fts ON memories USING gin (fts);

CREATE TABLE memory_versions (
  memory_id text COLLATE "C" NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
  version integer NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  memory text COLLATE "C" NOT NULL,
  metadata text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  retain_until bigint,
  PRIMARY KEY (memory_id, version)
);

-- One row per (memory, model) that embedded it; a null embedding = the model gave no vector (no known
-- word). Exact nearest neighbours per user: (model, user_id) finds the user's rows, then distances sort.
CREATE TABLE memory_vectors (
  memory_rowid bigint NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
  model text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  embedding vector,
  PRIMARY KEY (memory_rowid, model)
);
CREATE INDEX memory_vectors_by_user ON memory_vectors (model, user_id);

-- Bumped by every change to a user's memories (0002's triggers): a node's search cache compares it
-- before answering from memory, so a write on any node is seen at once by every node.
CREATE TABLE memory_change_versions (
  user_id text COLLATE "C" PRIMARY KEY,
  version bigint NOT NULL
);

CREATE TABLE memory_spaces (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE conversations (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL,
  memory_space_id text COLLATE "C" NOT NULL,
  session_id text COLLATE "C",
  message_count integer NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  last_message_at bigint NOT NULL,
  archived_at bigint,
  retain_until bigint
);
CREATE INDEX conversations_by_user ON conversations (user_id, created_at DESC, id DESC);
CREATE INDEX conversations_by_space ON conversations (memory_space_id, id);

CREATE TABLE conversation_messages (
  conversation_id text COLLATE "C" NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL,
  content text COLLATE "C" NOT NULL,
  timestamp bigint NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);

CREATE TABLE immutable_records (
  type text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C",
  current_version integer NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  accessed_at bigint NOT NULL,
  PRIMARY KEY (type, id)
);
CREATE INDEX immutable_by_org ON immutable_records (organization_id, type, id);
CREATE INDEX immutable_by_user ON immutable_records (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE immutable_versions (
  type text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  version integer NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  -- Who wrote this version (each version has its own author).
  user_id text COLLATE "C",
  data text COLLATE "C" NOT NULL,
  metadata text COLLATE "C" NOT NULL DEFAULT '{}',
  created_at bigint NOT NULL,
  retain_until bigint,
  PRIMARY KEY (type, id, version),
  FOREIGN KEY (type, id) REFERENCES immutable_records (type, id) ON DELETE CASCADE
);
CREATE INDEX immutable_versions_by_user ON immutable_versions (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE mutable_entries (
  namespace text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C",
  value text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  accessed_at bigint NOT NULL,
  expires_at bigint,
  retain_until bigint,
  PRIMARY KEY (namespace, key)
);
CREATE INDEX mutable_by_org ON mutable_entries (organization_id, namespace, key);
CREATE INDEX mutable_by_user ON mutable_entries (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE graph_entities (
  node bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL,
  type text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  name_key text COLLATE "C" NOT NULL,
  properties text COLLATE "C" NOT NULL DEFAULT '{}',
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (user_id, type, id)
);

CREATE TABLE graph_relationships (
  from_node bigint NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  type text COLLATE "C" NOT NULL,
  to_node bigint NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  user_id text COLLATE "C" NOT NULL,
  properties text COLLATE "C" NOT NULL DEFAULT '{}',
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (from_node, type, to_node)
);
CREATE INDEX graph_relationships_in ON graph_relationships (to_node, type, from_node);
CREATE INDEX graph_relationships_by_user ON graph_relationships (user_id);

CREATE TABLE graph_mentions (
  user_id text COLLATE "C" NOT NULL,
  memory_id text COLLATE "C" NOT NULL,
  node bigint NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  PRIMARY KEY (user_id, memory_id, node)
);
CREATE INDEX graph_mentions_by_node ON graph_mentions (node, user_id, memory_id);

CREATE TABLE governance_policies (
  id text COLLATE "C" PRIMARY KEY,
  scope_kind text COLLATE "C" NOT NULL CHECK (scope_kind IN ('organization', 'memorySpace')),
  scope_id text COLLATE "C" NOT NULL,
  policy text COLLATE "C" NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at bigint NOT NULL
);
CREATE INDEX governance_policies_active ON governance_policies (scope_kind, scope_id, active, created_at DESC);

CREATE TABLE enforcement_log (
  id text COLLATE "C" PRIMARY KEY,
  scope_kind text COLLATE "C" NOT NULL,
  scope_id text COLLATE "C" NOT NULL,
  layers text COLLATE "C" NOT NULL,
  rules text COLLATE "C" NOT NULL,
  enforced_at bigint NOT NULL,
  duration_ms double precision NOT NULL,
  conversations_purged integer NOT NULL DEFAULT 0,
  conversations_archived integer NOT NULL DEFAULT 0,
  immutable_versions_deleted integer NOT NULL DEFAULT 0,
  immutable_entities_purged integer NOT NULL DEFAULT 0,
  vector_versions_deleted integer NOT NULL DEFAULT 0,
  vector_memories_purged integer NOT NULL DEFAULT 0,
  vector_orphans_purged integer NOT NULL DEFAULT 0,
  mutable_keys_deleted integer NOT NULL DEFAULT 0,
  bytes_freed bigint NOT NULL DEFAULT 0,
  held integer NOT NULL DEFAULT 0
);
CREATE INDEX enforcement_log_by_time ON enforcement_log (enforced_at);

CREATE TABLE deletion_requests (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL,
  requested_at bigint NOT NULL,
  fulfilled_at bigint,
  deleted text COLLATE "C" NOT NULL DEFAULT '{}',
  retained text COLLATE "C" NOT NULL DEFAULT '{}'
);
CREATE INDEX deletion_requests_by_time ON deletion_requests (requested_at);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at bigint NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  memory_space_id text COLLATE "C",
  user_id text COLLATE "C",
  method text COLLATE "C" NOT NULL,
  path text COLLATE "C" NOT NULL,
  status integer NOT NULL
);
CREATE INDEX audit_log_by_time ON audit_log (organization_id, at);

CREATE TABLE sessions (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL,
  memory_space_id text COLLATE "C" NOT NULL,
  device text COLLATE "C",
  metadata text COLLATE "C" NOT NULL DEFAULT '{}',
  state text COLLATE "C" NOT NULL CHECK (state IN ('active', 'idle', 'ended', 'archived')),
  created_at bigint NOT NULL,
  last_activity_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  ended_at bigint,
  end_reason text COLLATE "C" CHECK (end_reason IN ('explicit', 'max_duration', 'idle_timeout')),
  archived_at bigint
);
CREATE INDEX sessions_by_user ON sessions (user_id, state, created_at DESC, id DESC);
CREATE INDEX sessions_by_state ON sessions (state, memory_space_id, ended_at);
