// Governance state: active policies per scope (with history), memory-space registrations, the
// enforcement log, deletion requests and the audit log.
import type { Owner } from "./memory-repo";

export type ScopeKind = "organization" | "memorySpace";

export interface EnforcementLogRow {
  /** The organization whose data the run enforced. */
  org_id: string;
  scope_kind: string;
  scope_id: string;
  layers: string;
  rules: string;
  enforced_at: number;
  duration_ms: number;
  conversations_purged: number;
  conversations_archived: number;
  immutable_versions_deleted: number;
  immutable_entities_purged: number;
  vector_versions_deleted: number;
  vector_memories_purged: number;
  vector_orphans_purged: number;
  mutable_keys_deleted: number;
  bytes_freed: number;
  held: number;
}

/** What makes two enforcement runs the same request: scope, processed layers and rules (JSON arrays). */
export type EnforcementKey = Pick<EnforcementLogRow, "org_id" | "scope_kind" | "scope_id" | "layers" | "rules">;

export interface DeletionRequestRow {
  id: string;
  user_id: string;
  requested_at: number;
  fulfilled_at: number | null;
}

export interface AuditRow {
  at: number;
  organization_id: string;
  memory_space_id: string | null;
  user_id: string | null;
  method: string;
  path: string;
  status: number;
  /** Who asked: a key id, "shared:<n>", "oidc:<subject>"; null for governance changes. */
  principal?: string | null;
  /** The route template that answered (e.g. /memories/:id/versions). */
  route?: string | null;
  duration_ms?: number | null;
}

/** An audit row as stored, with the id its cursor pages by. */
export type StoredAuditRow = AuditRow & {
  id: number;
  principal: string | null;
  route: string | null;
  duration_ms: number | null;
};

/** A page of one organization's audit log, oldest first, after the row id `after`. */
export interface AuditPageQuery {
  orgId: string;
  from: number;
  to: number;
  principal?: string;
  userId?: string;
  after?: number;
  limit: number;
}

export interface GovernanceRepo {
  // A policy's scope is (organization, kind, id): an organization's policy has its own id as scope id, a
  // memory space's the space id, which names a space only inside its organization (SPEC §8).
  activePolicy(org: string, kind: ScopeKind, scopeId: string): Promise<{ id: string; policy: string } | null>;
  /** Deactivates the scope's current policy and stores the new one (history is kept). */
  replacePolicy(org: string, kind: ScopeKind, scopeId: string, id: string, policy: string, now: number): Promise<void>;
  /** Deactivates the scope's active policy, keeping it as history; answers whether there was one. */
  deactivatePolicy(org: string, kind: ScopeKind, scopeId: string): Promise<boolean>;
  /** Records that the organization has this memory space (again: nothing changes). */
  registerSpace(org: string, spaceId: string, now: number): Promise<void>;
  /**
   * The organization's memory spaces that hold data or are registered: a space id (an agent id) names a
   * space only inside its organization (SPEC §8).
   */
  spaces(org: string): Promise<string[]>;
  logEnforcement(id: string, row: EnforcementLogRow): Promise<void>;
  /** How many runs of `key` are logged, and the latest of them (by enforced_at). */
  enforcementRuns(key: EnforcementKey): Promise<{ count: number; latest: EnforcementLogRow | null }>;
  /** The organization's runs between from and to; `space`: only the runs of that memory space. */
  enforcementLog(org: string, from: number, to: number, space?: string): Promise<EnforcementLogRow[]>;
  recordDeletionRequest(r: {
    id: string;
    org: string;
    userId: string;
    requestedAt: number;
    fulfilledAt: number | null;
    deleted: string;
    retained: string;
  }): Promise<void>;
  deletionRequests(org: string, from: number, to: number): Promise<DeletionRequestRow[]>;
  oldestUnfulfilledRequest(org: string): Promise<number | null>;
  insertAudit(rows: AuditRow[]): Promise<void>;
  /** The store's random key for pseudonyms of erased users. */
  pseudonymKey(): Promise<Uint8Array>;
  /** Replaces the user's id in the audit log and the deletion-request log by the pseudonym. */
  /** Replaces the user's id in the organization's audit and deletion-request logs (SPEC §8). */
  pseudonymize(owner: Owner, pseudonym: string): Promise<void>;
  /** Organizations that have audit entries. */
  auditOrganizations(): Promise<string[]>;
  /** Deletes an organization's audit entries older than `before`; returns how many. */
  pruneAudit(orgId: string, before: number): Promise<number>;
  audit(orgId: string, from: number, to: number, limit: number): Promise<AuditRow[]>;
  auditPage(q: AuditPageQuery): Promise<StoredAuditRow[]>;
}
