-- Governance state (SPEC §5): policies per scope with history, the enforcement log, the
-- deletion-request log and the audit log.
CREATE TABLE governance_policies (
  id TEXT PRIMARY KEY,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('organization', 'memorySpace')),
  scope_id TEXT NOT NULL,
  policy TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE INDEX governance_policies_active ON governance_policies (scope_kind, scope_id, active, created_at DESC);

CREATE TABLE enforcement_log (
  id TEXT PRIMARY KEY,
  scope_kind TEXT NOT NULL,
  scope_id TEXT NOT NULL,
  layers TEXT NOT NULL,
  rules TEXT NOT NULL,
  enforced_at INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  conversations_purged INTEGER NOT NULL DEFAULT 0,
  conversations_archived INTEGER NOT NULL DEFAULT 0,
  immutable_versions_deleted INTEGER NOT NULL DEFAULT 0,
  immutable_entities_purged INTEGER NOT NULL DEFAULT 0,
  vector_versions_deleted INTEGER NOT NULL DEFAULT 0,
  vector_memories_purged INTEGER NOT NULL DEFAULT 0,
  vector_orphans_purged INTEGER NOT NULL DEFAULT 0,
  mutable_keys_deleted INTEGER NOT NULL DEFAULT 0,
  bytes_freed INTEGER NOT NULL DEFAULT 0,
  held INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX enforcement_log_by_time ON enforcement_log (enforced_at);

CREATE TABLE deletion_requests (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  requested_at INTEGER NOT NULL,
  fulfilled_at INTEGER,
  deleted TEXT NOT NULL DEFAULT '{}',
  retained TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX deletion_requests_by_time ON deletion_requests (requested_at);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  organization_id TEXT NOT NULL,
  memory_space_id TEXT,
  user_id TEXT,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL
);
CREATE INDEX audit_log_by_time ON audit_log (organization_id, at);
