// Governance state in SQLite: active policies per scope (with history), memory-space
// registrations, the enforcement log, deletion requests and the audit log.
import type { Owner } from "../repos/memory-repo";
import type { Db } from "./connection";
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

export class SqliteGovernanceRepo implements GovernanceRepo {
  constructor(private readonly db: Db) {}

  async activePolicy(kind: ScopeKind, scopeId: string): Promise<{ id: string; policy: string } | null> {
    return this.db
      .query<{ id: string; policy: string }, [string, string]>(
        "SELECT id, policy FROM governance_policies WHERE scope_kind = ? AND scope_id = ? AND active = 1 ORDER BY created_at DESC, id DESC LIMIT 1",
      )
      .get(kind, scopeId);
  }

  /** Deactivates the scope's current policy and stores the new one (history is kept). */
  async replacePolicy(kind: ScopeKind, scopeId: string, id: string, policy: string, now: number): Promise<void> {
    this.db
      .query("UPDATE governance_policies SET active = 0 WHERE scope_kind = ? AND scope_id = ? AND active = 1")
      .run(kind, scopeId);
    this.db
      .query(
        "INSERT INTO governance_policies (id, scope_kind, scope_id, policy, active, created_at) VALUES (?, ?, ?, ?, 1, ?)",
      )
      .run(id, kind, scopeId, policy, now);
  }

  async deactivatePolicy(kind: ScopeKind, scopeId: string): Promise<boolean> {
    return (
      this.db
        .query("UPDATE governance_policies SET active = 0 WHERE scope_kind = ? AND scope_id = ? AND active = 1")
        .run(kind, scopeId).changes > 0
    );
  }

  async registerSpace(spaceId: string, orgId: string, now: number): Promise<void> {
    this.db
      .query(
        "INSERT INTO memory_spaces (id, organization_id, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id",
      )
      .run(spaceId, orgId, now);
  }

  async spaceOrg(spaceId: string): Promise<string | null> {
    return (
      this.db
        .query<{ organization_id: string }, [string]>("SELECT organization_id FROM memory_spaces WHERE id = ?")
        .get(spaceId)?.organization_id ?? null
    );
  }

  /** Every memory space that holds data or is registered, once per organization holding it. */
  async spaces(): Promise<{ id: string; org: string }[]> {
    return this.db
      .query<{ id: string; org: string }, []>(
        `SELECT DISTINCT org_id AS org, agent_id AS id FROM memories
         UNION SELECT DISTINCT org_id, memory_space_id FROM conversations
         UNION SELECT organization_id, id FROM memory_spaces ORDER BY id, org`,
      )
      .all();
  }

  async logEnforcement(id: string, row: EnforcementLogRow): Promise<void> {
    const cols = Object.keys(row);
    this.db
      .query(`INSERT INTO enforcement_log (id, ${cols.join(", ")}) VALUES (?, ${cols.map(() => "?").join(", ")})`)
      .run(id, ...(Object.values(row) as (string | number)[]));
  }

  async enforcementRuns(key: EnforcementKey): Promise<{ count: number; latest: EnforcementLogRow | null }> {
    const where = "FROM enforcement_log WHERE scope_kind = ? AND scope_id = ? AND layers = ? AND rules = ?";
    const args: [string, string, string, string] = [key.scope_kind, key.scope_id, key.layers, key.rules];
    const { n } = this.db.query<{ n: number }, typeof args>(`SELECT count(*) AS n ${where}`).get(...args)!;
    const latest = this.db
      .query<EnforcementLogRow, typeof args>(`SELECT * ${where} ORDER BY enforced_at DESC, rowid DESC LIMIT 1`)
      .get(...args);
    return { count: n, latest };
  }

  async enforcementLog(
    from: number,
    to: number,
    scope?: { kind: ScopeKind; ids: string[] },
  ): Promise<EnforcementLogRow[]> {
    if (!scope)
      return this.db
        .query<EnforcementLogRow, [number, number]>(
          "SELECT * FROM enforcement_log WHERE enforced_at >= ? AND enforced_at <= ?",
        )
        .all(from, to);
    return this.db
      .query<EnforcementLogRow, [number, number, string, string]>(
        "SELECT * FROM enforcement_log WHERE enforced_at >= ? AND enforced_at <= ? AND scope_kind = ? AND scope_id IN (SELECT value FROM json_each(?))",
      )
      .all(from, to, scope.kind, JSON.stringify(scope.ids));
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
    this.db
      .query(
        "INSERT INTO deletion_requests (id, org_id, user_id, requested_at, fulfilled_at, deleted, retained) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(r.id, r.org, r.userId, r.requestedAt, r.fulfilledAt, r.deleted, r.retained);
  }

  async deletionRequests(from: number, to: number): Promise<DeletionRequestRow[]> {
    return this.db
      .query<DeletionRequestRow, [number, number]>(
        "SELECT id, user_id, requested_at, fulfilled_at FROM deletion_requests WHERE requested_at >= ? AND requested_at <= ?",
      )
      .all(from, to);
  }

  async oldestUnfulfilledRequest(): Promise<number | null> {
    return (
      this.db
        .query<{ t: number | null }, []>(
          "SELECT min(requested_at) AS t FROM deletion_requests WHERE fulfilled_at IS NULL",
        )
        .get()?.t ?? null
    );
  }

  async insertAudit(rows: AuditRow[]): Promise<void> {
    const ins = this.db.query(
      `INSERT INTO audit_log (at, organization_id, memory_space_id, user_id, method, path, status, principal, route, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of rows)
      ins.run(
        r.at,
        r.organization_id,
        r.memory_space_id,
        r.user_id,
        r.method,
        r.path,
        r.status,
        r.principal ?? null,
        r.route ?? null,
        r.duration_ms ?? null,
      );
  }

  async audit(orgId: string, from: number, to: number, limit: number): Promise<AuditRow[]> {
    return this.db
      .query<AuditRow, [string, number, number, number]>(
        "SELECT at, organization_id, memory_space_id, user_id, method, path, status FROM audit_log WHERE organization_id = ? AND at >= ? AND at <= ? ORDER BY at, id LIMIT ?",
      )
      .all(orgId, from, to, limit);
  }

  async auditPage(q: AuditPageQuery): Promise<StoredAuditRow[]> {
    const params: (string | number)[] = [q.orgId, q.from, q.to, q.after ?? 0];
    const principal = q.principal !== undefined ? (params.push(q.principal), " AND principal = ?") : "";
    const user = q.userId !== undefined ? (params.push(q.userId), " AND user_id = ?") : "";
    params.push(q.limit);
    return this.db
      .query<StoredAuditRow, (string | number)[]>(
        `SELECT ${AUDIT_COLUMNS} FROM audit_log
         WHERE organization_id = ? AND at >= ? AND at <= ? AND id > ?${principal}${user} ORDER BY id LIMIT ?`,
      )
      .all(...params);
  }

  async pseudonymKey(): Promise<Uint8Array> {
    return this.db
      .query<{ value: Uint8Array }, []>("SELECT value FROM store_secrets WHERE name = 'pseudonym_key'")
      .get()!.value;
  }

  async pseudonymize(o: Owner, pseudonym: string): Promise<void> {
    this.db
      .query("UPDATE audit_log SET user_id = ? WHERE user_id = ? AND organization_id = ?")
      .run(pseudonym, o.userId, o.org);
    this.db
      .query("UPDATE deletion_requests SET user_id = ? WHERE user_id = ? AND org_id = ?")
      .run(pseudonym, o.userId, o.org);
  }

  async auditOrganizations(): Promise<string[]> {
    return this.db
      .query<{ o: string }, []>("SELECT DISTINCT organization_id AS o FROM audit_log")
      .all()
      .map((r) => r.o);
  }

  async pruneAudit(orgId: string, before: number): Promise<number> {
    return this.db.query("DELETE FROM audit_log WHERE organization_id = ? AND at < ?").run(orgId, before).changes;
  }
}

const AUDIT_COLUMNS =
  "id, at, organization_id, memory_space_id, user_id, method, path, status, principal, route, duration_ms";
