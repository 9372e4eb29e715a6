// Governance state in PostgreSQL: active policies per scope (with history), memory-space
// registrations, the enforcement log, deletion requests and the audit log.
import type { Owner } from "../repos/memory-repo";
import type { Pg } from "./connection";
import type {
  AuditPageQuery,
  AuditRow,
  StoredAuditRow,
  DeletionRequestRow,
  EnforcementKey,
  EnforcementLogRow,
  GovernanceRepo,
  ScopeKind,
} from "../repos/governance-repo";

const LOG_COLUMNS = [
  "org_id",
  "scope_kind",
  "scope_id",
  "layers",
  "rules",
  "enforced_at",
  "duration_ms",
  "conversations_purged",
  "conversations_archived",
  "immutable_versions_deleted",
  "immutable_entities_purged",
  "vector_versions_deleted",
  "vector_memories_purged",
  "vector_orphans_purged",
  "mutable_keys_deleted",
  "bytes_freed",
  "held",
] as const satisfies readonly (keyof EnforcementLogRow)[];

export class PgGovernanceRepo implements GovernanceRepo {
  constructor(private readonly pg: Pg) {}

  activePolicy(org: string, kind: ScopeKind, scopeId: string): Promise<{ id: string; policy: string } | null> {
    return this.pg.one(
      `SELECT id, policy FROM governance_policies WHERE org_id = $1 AND scope_kind = $2 AND scope_id = $3 AND active
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [org, kind, scopeId],
    );
  }

  async replacePolicy(
    org: string,
    kind: ScopeKind,
    scopeId: string,
    id: string,
    policy: string,
    now: number,
  ): Promise<void> {
    await this.deactivatePolicy(org, kind, scopeId);
    await this.pg.run(
      `INSERT INTO governance_policies (id, org_id, scope_kind, scope_id, policy, active, created_at)
       VALUES ($1, $2, $3, $4, $5, true, $6)`,
      [id, org, kind, scopeId, policy, now],
    );
  }

  async deactivatePolicy(org: string, kind: ScopeKind, scopeId: string): Promise<boolean> {
    const n = await this.pg.run(
      "UPDATE governance_policies SET active = false WHERE org_id = $1 AND scope_kind = $2 AND scope_id = $3 AND active",
      [org, kind, scopeId],
    );
    return n > 0;
  }

  async registerSpace(org: string, spaceId: string, now: number): Promise<void> {
    await this.pg.run(
      "INSERT INTO memory_spaces (organization_id, id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [org, spaceId, now],
    );
  }

  async spaces(org: string): Promise<string[]> {
    const rows = await this.pg.all<{ id: string }>(
      `SELECT agent_id AS id FROM memories WHERE org_id = $1
       UNION SELECT memory_space_id FROM conversations WHERE org_id = $1
       UNION SELECT id FROM memory_spaces WHERE organization_id = $1 ORDER BY id`,
      [org],
    );
    return rows.map((r) => r.id);
  }

  async logEnforcement(id: string, row: EnforcementLogRow): Promise<void> {
    await this.pg.run(
      `INSERT INTO enforcement_log (id, ${LOG_COLUMNS.join(", ")}) VALUES ($1, ${LOG_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")})`,
      [id, ...LOG_COLUMNS.map((c) => row[c])],
    );
  }

  async enforcementRuns(key: EnforcementKey): Promise<{ count: number; latest: EnforcementLogRow | null }> {
    const where =
      "FROM enforcement_log WHERE org_id = $1 AND scope_kind = $2 AND scope_id = $3 AND layers = $4 AND rules = $5";
    const args = [key.org_id, key.scope_kind, key.scope_id, key.layers, key.rules];
    const { n } = (await this.pg.one<{ n: number }>(`SELECT count(*)::int AS n ${where}`, args))!;
    const latest = await this.pg.one<EnforcementLogRow>(
      `SELECT ${LOG_COLUMNS.join(", ")} ${where} ORDER BY enforced_at DESC LIMIT 1`,
      args,
    );
    return { count: n, latest: latest ?? null };
  }

  enforcementLog(org: string, from: number, to: number, space?: string): Promise<EnforcementLogRow[]> {
    const select = `SELECT ${LOG_COLUMNS.join(", ")} FROM enforcement_log
      WHERE org_id = $1 AND enforced_at >= $2 AND enforced_at <= $3`;
    if (space === undefined) return this.pg.all(select, [org, from, to]);
    return this.pg.all(`${select} AND scope_kind = 'memorySpace' AND scope_id = $4`, [org, from, to, space]);
  }

  async recordDeletionRequest(r: {
    id: string;
    org: string;
    userId: string;
    requestedAt: number;
    fulfilledAt: number | null;
    deleted: string;
    retained: string;
  }): Promise<void> {
    await this.pg.run(
      `INSERT INTO deletion_requests (id, user_id, requested_at, fulfilled_at, deleted, retained, org_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [r.id, r.userId, r.requestedAt, r.fulfilledAt, r.deleted, r.retained, r.org],
    );
  }

  deletionRequests(org: string, from: number, to: number): Promise<DeletionRequestRow[]> {
    return this.pg.all(
      `SELECT id, user_id, requested_at, fulfilled_at FROM deletion_requests
       WHERE org_id = $1 AND requested_at >= $2 AND requested_at <= $3`,
      [org, from, to],
    );
  }

  async oldestUnfulfilledRequest(org: string): Promise<number | null> {
    const r = await this.pg.one<{ t: number | null }>(
      "SELECT min(requested_at) AS t FROM deletion_requests WHERE org_id = $1 AND fulfilled_at IS NULL",
      [org],
    );
    return r?.t ?? null;
  }

  async insertAudit(rows: AuditRow[]): Promise<void> {
    if (!rows.length) return;
    const col = <K extends keyof AuditRow>(k: K) => rows.map((r) => r[k]);
    await this.pg.run(
      `INSERT INTO audit_log (at, organization_id, memory_space_id, user_id, method, path, status, principal, route,
         duration_ms)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
         $8::text[], $9::text[], $10::float8[])`,
      [
        col("at"),
        col("organization_id"),
        col("memory_space_id"),
        col("user_id"),
        col("method"),
        col("path"),
        col("status"),
        rows.map((r) => r.principal ?? null),
        rows.map((r) => r.route ?? null),
        rows.map((r) => r.duration_ms ?? null),
      ],
    );
  }

  audit(orgId: string, from: number, to: number, limit: number): Promise<AuditRow[]> {
    return this.pg.all(
      `SELECT at, organization_id, memory_space_id, user_id, method, path, status FROM audit_log
       WHERE organization_id = $1 AND at >= $2 AND at <= $3 ORDER BY at, id LIMIT $4`,
      [orgId, from, to, limit],
    );
  }

  auditPage(q: AuditPageQuery): Promise<StoredAuditRow[]> {
    const params: unknown[] = [q.orgId, q.from, q.to, q.after ?? 0];
    const principal = q.principal !== undefined ? ` AND principal = $${params.push(q.principal)}` : "";
    const user = q.userId !== undefined ? ` AND user_id = $${params.push(q.userId)}` : "";
    return this.pg.all(
      `SELECT id, at, organization_id, memory_space_id, user_id, method, path, status, principal, route, duration_ms
       FROM audit_log WHERE organization_id = $1 AND at >= $2 AND at <= $3 AND id > $4${principal}${user}
       ORDER BY id LIMIT $${params.push(q.limit)}`,
      params,
    );
  }

  async pseudonymKey(): Promise<Uint8Array> {
    const r = await this.pg.one<{ value: Uint8Array }>("SELECT value FROM store_secrets WHERE name = 'pseudonym_key'");
    return new Uint8Array(r!.value);
  }

  async pseudonymize(o: Owner, pseudonym: string): Promise<void> {
    await this.pg.run("UPDATE audit_log SET user_id = $1 WHERE user_id = $2 AND organization_id = $3", [
      pseudonym,
      o.userId,
      o.org,
    ]);
    await this.pg.run("UPDATE deletion_requests SET user_id = $1 WHERE user_id = $2 AND org_id = $3", [
      pseudonym,
      o.userId,
      o.org,
    ]);
  }

  /** One index probe per organization (a skip scan), not a walk over every entry (the prune runs hourly). */
  async auditOrganizations(): Promise<string[]> {
    return (await this.pg.all<{ o: string }>(AUDIT_ORGANIZATIONS)).map((r) => r.o);
  }

  pruneAudit(orgId: string, before: number): Promise<number> {
    return this.pg.run("DELETE FROM audit_log WHERE organization_id = $1 AND at < $2", [orgId, before]);
  }
}

/**
 * The organizations with audit entries, in order: each the first one after the last, read from the index
 * (ORDER BY … LIMIT 1: min() is not answered from the index under row-level security, and read every entry).
 */
const AUDIT_ORGANIZATIONS = `WITH RECURSIVE orgs(o) AS (
    SELECT (SELECT organization_id FROM audit_log ORDER BY organization_id LIMIT 1)
    UNION ALL SELECT (SELECT organization_id FROM audit_log WHERE organization_id > orgs.o ORDER BY organization_id LIMIT 1)
      FROM orgs WHERE orgs.o IS NOT NULL
  ) SELECT o FROM orgs WHERE o IS NOT NULL`;
