// What `engram migrate-store` copies and compares, engine by engine: every table both engines keep, in
// an order that satisfies foreign keys, with the columns of the portable row (both engines' columns, same
// names) and the key that orders and pages it; and the two ends of a copy each engine implements
// (store/<engine>/transfer-side.ts), each over one transaction. Vectors and the keyword index are copied
// apart (transfer.ts): each engine stores them in its own way. A test checks that every column of either
// schema is listed here or named below as one engine's own, so a new migration cannot be left out silently.
import type { VectorColumns, VectorRow } from "./repos/vector-repo";

export interface TableSpec {
  name: string;
  /** Orders rows for paging and comparison (unique; text compares byte by byte on both engines). */
  key: string[];
  columns: string[];
}

const t = (name: string, key: string[], columns: string): TableSpec => ({ name, key, columns: columns.split(/,\s*/) });

export const TABLES: TableSpec[] = [
  t(
    "memories",
    ["rowid"],
    "rowid, id, org_id, user_id, agent_id, session_id, memory, metadata, importance, source_type, expires_at, conversation_ref, immutable_ref, version, created_at, updated_at, retain_until, text_key, superseded_by, has_facts",
  ),
  // user_id, org_id: PostgreSQL keeps the owner on the row (row-level security); SQLite reads them from the memory.
  t(
    "memory_versions",
    ["memory_id", "version"],
    "memory_id, version, org_id, user_id, memory, metadata, created_at, retain_until",
  ),
  t(
    "memory_facts",
    ["id"],
    "id, memory_id, org_id, user_id, agent_id, session_id, subject, attribute, value, value_key, qualifier, negative, ended_by",
  ),
  t("memory_spaces", ["organization_id", "id"], "organization_id, id, created_at"),
  t(
    "conversations",
    ["id"],
    "id, org_id, user_id, memory_space_id, session_id, message_count, bytes, created_at, last_message_at, archived_at, retain_until",
  ),
  t(
    "conversation_messages",
    ["conversation_id", "seq"],
    "conversation_id, seq, org_id, user_id, role, content, timestamp",
  ),
  t(
    "immutable_records",
    ["organization_id", "type", "id"],
    "type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at",
  ),
  t(
    "immutable_versions",
    ["organization_id", "type", "id", "version"],
    "type, id, version, organization_id, user_id, data, metadata, created_at, retain_until",
  ),
  t(
    "mutable_entries",
    ["organization_id", "namespace", "key"],
    "namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until",
  ),
  t("graph_entities", ["node"], "node, org_id, user_id, type, id, name, name_key, properties, created_at, updated_at"),
  t(
    "graph_relationships",
    ["from_node", "type", "to_node"],
    "from_node, type, to_node, org_id, user_id, properties, created_at, updated_at",
  ),
  t("graph_mentions", ["org_id", "user_id", "memory_id", "node"], "org_id, user_id, memory_id, node"),
  t("governance_policies", ["id"], "id, org_id, scope_kind, scope_id, policy, active, created_at"),
  t(
    "enforcement_log",
    ["id"],
    "id, org_id, scope_kind, scope_id, layers, rules, enforced_at, duration_ms, conversations_purged, conversations_archived, immutable_versions_deleted, immutable_entities_purged, vector_versions_deleted, vector_memories_purged, vector_orphans_purged, mutable_keys_deleted, bytes_freed, held",
  ),
  t("deletion_requests", ["id"], "id, org_id, user_id, requested_at, fulfilled_at, deleted, retained"),
  t(
    "api_keys",
    ["id"],
    "id, org_id, role, user_id, agent_id, name, secret_hash, created_at, expires_at, last_used_at, revoked_at",
  ),
  t("shared_spaces", ["org_id", "id"], "org_id, id, name, created_at, created_by"),
  t("shared_space_members", ["org_id", "space_id", "user_id"], "org_id, space_id, user_id, role"),
  t(
    "audit_log",
    ["id"],
    "id, at, organization_id, memory_space_id, user_id, method, path, status, principal, route, duration_ms",
  ),
  t(
    "sessions",
    ["id"],
    "id, org_id, user_id, memory_space_id, device, metadata, state, created_at, last_activity_at, expires_at, ended_at, end_reason, archived_at",
  ),
];

/** Columns only one engine keeps, read on the other from the parent row (the table is aliased x). */
export const DERIVED: Record<string, Record<string, string>> = {
  memory_versions: {
    user_id: "SELECT m.user_id FROM memories m WHERE m.id = x.memory_id",
    org_id: "SELECT m.org_id FROM memories m WHERE m.id = x.memory_id",
  },
  conversation_messages: {
    user_id: "SELECT c.user_id FROM conversations c WHERE c.id = x.conversation_id",
    org_id: "SELECT c.org_id FROM conversations c WHERE c.id = x.conversation_id",
  },
};

/**
 * Tables an engine keeps that are not copied as rows: the keyword index and vectors (rebuilt or copied
 * apart), bookkeeping of its own (migrations, change counters, pending erasures), derived numbering.
 */
export const ENGINE_ONLY = {
  sqlite: [
    "schema_migrations",
    "memories_fts",
    "fts_owners",
    "memory_embeddings",
    "vector_erasures",
    "vector_index_state",
    // The memory rowid counter: carried by lastMemoryRowid / reserveMemoryRowids.
    "sqlite_sequence",
    // Rate-limit hits of the current windows: a copy starts with fresh limits.
    "rate_windows",
    // The key of erased users' pseudonyms: the target keeps the one its migrations drew, so a later
    // erasure there names a user by another pseudonym than the source did (copied rows keep theirs).
    "store_secrets",
    // Per-user memory counts, kept by triggers as the memories are copied in; views of the keyword index.
    "memory_counts",
    "memories_fts_terms",
    "memories_fts_instances",
    // The last session sweep per kind and scope: which run a waiting sweep answers with, not data.
    "session_sweeps",
  ],
  postgres: [
    "schema_migrations",
    "memory_vectors",
    "memory_change_versions",
    "rate_windows",
    "store_secrets",
    "session_sweeps",
  ],
  /** Columns computed by the engine itself. */
  columns: { postgres: { memories: ["fts"] } as Record<string, string[]> },
};

/**
 * One keyset page of a table in key order: its portable columns, a column the engine lacks read from the
 * parent row (DERIVED) or NULL. `slot(i)`: the engine's i-th parameter ("?" or "$1").
 */
export function pageSql(
  t: TableSpec,
  has: (column: string) => boolean,
  after: boolean,
  limit: number,
  slot: (i: number) => string,
): string {
  const cols = t.columns.map((c) =>
    has(c) ? `x.${c}` : DERIVED[t.name]?.[c] ? `(${DERIVED[t.name]![c]}) AS ${c}` : `NULL AS ${c}`,
  );
  const key = t.key.map((k) => `x.${k}`).join(", ");
  const where = after ? `WHERE (${key}) > (${t.key.map((_, i) => slot(i + 1)).join(", ")})` : "";
  return `SELECT ${cols.join(", ")} FROM ${t.name} x ${where} ORDER BY ${key} LIMIT ${limit}`;
}

/** Copied vectors as a vector index takes them: with the filter columns of their (already copied) memories. */
export function vectorRowsOf(memories: VectorColumns[], vectors: [number, Float32Array | null][]): VectorRow[] {
  const byRowid = new Map(vectors);
  return memories.map((m) => ({
    rowid: m.rowid,
    org: m.org_id,
    userId: m.user_id,
    agentId: m.agent_id,
    sessionId: m.session_id,
    expiresAt: m.expires_at,
    vector: byRowid.get(m.rowid) ?? null,
  }));
}

export type Row = Record<string, unknown>;
export type Vectors = Map<number, Float32Array | null>;

export interface SourceSide {
  /** Up to `limit` rows after the key `after` (null: from the start), in key order. */
  rows(table: TableSpec, after: unknown[] | null, limit: number): Promise<Row[]>;
  /** Models that embedded memories, with how many each embedded, most first. */
  models(): Promise<{ model: string; count: number }[]>;
  /** Every vector of a live memory of this model (null: the model gave none), by memory rowid. */
  vectors(model: string): Promise<Vectors>;
  /** Memories without a row in the keyword index. */
  unindexed(): Promise<number>;
  /** The highest memory rowid ever given (deleted memories' included: a rowid is never given twice). */
  lastMemoryRowid(): Promise<number>;
}

export interface TargetSide extends SourceSide {
  /** SQLite records one embedding model per memory; PostgreSQL keeps every model's vector. */
  readonly oneModelPerMemory: boolean;
  isEmpty(): Promise<boolean>;
  /** Deletes every row (the caller was told to replace a non-empty target). */
  clear(): Promise<void>;
  insert(table: TableSpec, rows: Row[]): Promise<void>;
  /** After every table's rows: rebuild what the engine derives (keyword index, identity counters). */
  finishRows(): Promise<void>;
  /** New memories get rowids after `last` (the source's counter, which deleted memories may have moved past). */
  reserveMemoryRowids(last: number): Promise<void>;
  /** Writes vectors of memories already copied. */
  putVectors(model: string, dimensions: number, rows: [number, Float32Array | null][]): Promise<void>;
}

/** A store opened for a copy: runs one body in one transaction (a target's commits only if it returns). */
export interface Endpoint {
  readonly kind: "sqlite" | "postgres";
  /** Where, for messages (no password). */
  readonly label: string;
  read<T>(fn: (side: SourceSide) => Promise<T>): Promise<T>;
  write<T>(fn: (side: TargetSide) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
