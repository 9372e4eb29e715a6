// The memories table family in PostgreSQL (memories, memory_versions; the tsvector column keeps
// keyword search in step by itself); every statement a client asks for is scoped by organization and user_id. Inside
// a write transaction a row read for an update is locked (FOR UPDATE): nodes may update it at once.
import type { Pg } from "./connection";
import { lockUserFacts } from "./fact-repo";
import {
  insertValues,
  type ListedRow,
  type MemoryRepo,
  type MemoryRow,
  type NewMemory,
  type Owner,
  type Predecessor,
  type VersionRow,
} from "../repos/memory-repo";

export const MEMORY_COLUMNS =
  "rowid, id, org_id, user_id, agent_id, session_id, memory, metadata, importance, source_type, expires_at, " +
  "conversation_ref, immutable_ref, version, created_at, updated_at, retain_until, text_key, superseded_by, has_facts";
const VISIBLE = (p: string) => `(expires_at IS NULL OR expires_at > ${p})`;
const CURRENT = " AND superseded_by IS NULL";
/** A row's earned retention is over at the parameter (the sticky floor of SPEC §5.4). */
export const RETENTION_OVER = (p: string) => `(retain_until IS NULL OR retain_until <= ${p})`;
/** The column raised to the parameter (an update earns anew; nothing lowers it). */
export const RAISED = (col: string, p: string) => `nullif(greatest(coalesce(${col}, 0), coalesce(${p}, 0)), 0)`;

export class PgMemoryRepo implements MemoryRepo {
  constructor(
    private readonly pg: Pg,
    private readonly writing: boolean,
  ) {}

  async insert(m: NewMemory): Promise<number> {
    const r = await this.pg.one<{ rowid: number }>(
      `INSERT INTO memories (id, user_id, agent_id, session_id, memory, metadata, importance, source_type, expires_at,
         conversation_ref, immutable_ref, version, created_at, updated_at, retain_until, text_key, has_facts, org_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $14, $15, $16, $17) RETURNING rowid`,
      insertValues(m),
    );
    return r!.rowid;
  }

  get(o: Owner, id: string, now: number, agentId?: string): Promise<MemoryRow | null> {
    const params: unknown[] = [o.userId, id, now, o.org];
    const agent = agentId !== undefined ? ` AND agent_id = $${params.push(agentId)}` : "";
    return this.pg.one<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories
       WHERE id = $2 AND org_id = $4 AND user_id = $1 AND ${VISIBLE("$3")}${agent}${this.lock}`,
      params,
    );
  }

  page(q: {
    org: string;
    userId: string;
    agentId?: string;
    now: number;
    limit: number;
    after?: [number, number];
    includeSuperseded?: boolean;
  }): Promise<ListedRow[]> {
    const params: unknown[] = [q.userId, q.now, q.limit, q.org];
    const agent =
      (q.agentId !== undefined ? ` AND agent_id = $${params.push(q.agentId)}` : "") +
      (q.includeSuperseded ? "" : CURRENT);
    let after = "";
    if (q.after) {
      const [t, r] = [params.push(q.after[0]), params.push(q.after[1])];
      after = ` AND (created_at, rowid) < ($${t}, $${r})`;
    }
    return this.pg.all<ListedRow>(
      `SELECT rowid, id, memory, metadata, agent_id, session_id, created_at, superseded_by, has_facts FROM memories
       WHERE org_id = $4 AND user_id = $1 AND ${VISIBLE("$2")}${agent}${after} ORDER BY created_at DESC, rowid DESC LIMIT $3`,
      params,
    );
  }

  async count(
    o: Owner,
    now: number,
    agentId?: string,
    includeSuperseded = false,
  ): Promise<{ n: number; nextExpiry: number | null }> {
    const params: unknown[] = [o.userId, now, o.org];
    const agent =
      (agentId !== undefined ? ` AND agent_id = $${params.push(agentId)}` : "") + (includeSuperseded ? "" : CURRENT);
    return (await this.pg.one<{ n: number; nextExpiry: number | null }>(
      `SELECT count(*) AS n, min(expires_at) AS "nextExpiry" FROM memories
       WHERE org_id = $3 AND user_id = $1 AND ${VISIBLE("$2")}${agent}`,
      params,
    ))!;
  }

  async update(
    row: MemoryRow,
    next: {
      memory: string;
      metadata: string;
      importance: number;
      source_type: string;
      expires_at: number | null;
      retain_until: number | null;
    },
    now: number,
  ): Promise<void> {
    // The previous version keeps what it earned when it was written.
    await this.pg.run(
      `INSERT INTO memory_versions (memory_id, version, user_id, memory, metadata, created_at, retain_until, org_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (memory_id, version) DO UPDATE SET memory = excluded.memory, metadata = excluded.metadata,
         created_at = excluded.created_at, retain_until = excluded.retain_until`,
      [row.id, row.version, row.user_id, row.memory, row.metadata, row.updated_at, row.retain_until, row.org_id],
    );
    await this.pg.run(
      `UPDATE memories SET memory = $1, metadata = $2, importance = $3, source_type = $4, expires_at = $5,
         version = version + 1, updated_at = $6, retain_until = ${RAISED("retain_until", "$7::bigint")}
       WHERE rowid = $8 AND user_id = $9`,
      [
        next.memory,
        next.metadata,
        next.importance,
        next.source_type,
        next.expires_at,
        now,
        next.retain_until,
        row.rowid,
        row.user_id,
      ],
    );
  }

  versions(o: Owner, id: string): Promise<VersionRow[]> {
    return this.pg.all<VersionRow>(
      `SELECT v.version, v.memory, v.metadata, v.created_at FROM memory_versions v JOIN memories m ON m.id = v.memory_id
       WHERE m.id = $2 AND m.org_id = $3 AND m.user_id = $1 ORDER BY v.version DESC`,
      [o.userId, id, o.org],
    );
  }

  async spacesOfUser(o: Owner): Promise<string[]> {
    const rows = await this.pg.all<{ a: string }>(
      "SELECT DISTINCT agent_id AS a FROM memories WHERE org_id = $1 AND user_id = $2",
      [o.org, o.userId],
    );
    return rows.map((r) => r.a);
  }

  deleteForUser(o: Owner, agentId: string, before: number, now: number): Promise<{ rowid: number; id: string }[]> {
    // "Before" may be Infinity (everything): no bigint is.
    const until = Number.isFinite(before) ? before : null;
    return this.pg.all(
      `DELETE FROM memories WHERE org_id = $5 AND user_id = $1 AND agent_id = $2 AND ($3::bigint IS NULL OR updated_at < $3)
         AND ${RETENTION_OVER("$4")} RETURNING rowid, id`,
      [o.userId, agentId, until, now, o.org],
    );
  }

  async countForUser(o: Owner, agentId?: string): Promise<number> {
    const params: unknown[] = [o.org, o.userId];
    const agent = agentId !== undefined ? ` AND agent_id = $${params.push(agentId)}` : "";
    return (await this.pg.one<{ n: number }>(
      `SELECT count(*) AS n FROM memories WHERE org_id = $1 AND user_id = $2${agent}`,
      params,
    ))!.n;
  }

  async deleteByRowids(rowids: number[]): Promise<void> {
    await this.pg.run("DELETE FROM memories WHERE rowid = ANY($1::bigint[])", [rowids]);
  }

  async deleteVersions(items: { memoryId: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM memory_versions v USING unnest($1::text[], $2::int[]) AS d(memory_id, version)
       WHERE v.memory_id = d.memory_id AND v.version = d.version`,
      [items.map((i) => i.memoryId), items.map((i) => i.version)],
    );
  }

  /** The tsvector lives in the memory's row and went with it: no index of its own keeps the user. */
  async forgetUser(_owner: Owner): Promise<boolean> {
    return false;
  }

  async recentTexts(o: Owner, n: number): Promise<string[]> {
    const rows = await this.pg.all<{ memory: string }>(
      "SELECT memory FROM memories WHERE org_id = $3 AND user_id = $1 ORDER BY created_at DESC, rowid DESC LIMIT $2",
      [o.userId, n, o.org],
    );
    return rows.map((r) => r.memory);
  }

  /** Takes the user's fact lock first: two concurrent identical adds of one user find each other. */
  async sameText(q: { org: string; userId: string; agentId: string; sessionId: string; key: number; now: number }) {
    await lockUserFacts(this.pg, q);
    return this.pg.all<{ rowid: number; id: string; memory: string }>(
      `SELECT rowid, id, memory FROM memories WHERE org_id = $6 AND user_id = $1 AND text_key = $2 AND agent_id = $3
         AND session_id = $4 AND superseded_by IS NULL AND ${VISIBLE("$5")}`,
      [q.userId, q.key, q.agentId, q.sessionId, q.now, q.org],
    );
  }

  async supersede(o: Owner, ids: readonly string[], by: string): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.pg.all<{ id: string }>(
      `UPDATE memories SET superseded_by = $1 WHERE org_id = $4 AND user_id = $2 AND superseded_by IS NULL
         AND id = ANY($3::text[]) RETURNING id`,
      [by, o.userId, ids, o.org],
    );
    return rows.map((r) => r.id);
  }

  async markFacts(rowid: number): Promise<void> {
    await this.pg.run("UPDATE memories SET has_facts = 1 WHERE rowid = $1 AND has_facts = 0", [rowid]);
  }

  async setTextKey(rowid: number, key: number): Promise<void> {
    await this.pg.run("UPDATE memories SET text_key = $1 WHERE rowid = $2", [key, rowid]);
  }

  async supersedes(o: Owner, ids: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    const rows = await this.pg.all<{ by: string; id: string }>(
      `SELECT superseded_by AS by, id FROM memories WHERE superseded_by = ANY($1::text[]) AND org_id = $3 AND user_id = $2
       ORDER BY created_at DESC, rowid DESC`,
      [ids, o.userId, o.org],
    );
    for (const r of rows) out.set(r.by, [...(out.get(r.by) ?? []), r.id]);
    return out;
  }

  /** A chain is short (one link per change of a fact); the depth bound only guards against a cycle. */
  async predecessors(o: Owner, id: string): Promise<Predecessor[]> {
    const rows = await this.pg.all<MemoryRow>(
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT id, 1 FROM memories WHERE superseded_by = $1 AND org_id = $3 AND user_id = $2
         UNION SELECT m.id, c.depth + 1 FROM chain c
           JOIN memories m ON m.superseded_by = c.id AND m.org_id = $3 AND m.user_id = $2 WHERE c.depth < 1000
       )
       SELECT ${MEMORY_COLUMNS.replace(/(\w+)/g, "m.$1")} FROM chain c JOIN memories m ON m.id = c.id
       WHERE m.org_id = $3 AND m.user_id = $2 ORDER BY m.created_at DESC, m.rowid DESC`,
      [id, o.userId, o.org],
    );
    return Promise.all(rows.map(async (r) => ({ ...r, versions: await this.versions(o, r.id) })));
  }

  async total(): Promise<number> {
    return (await this.pg.one<{ n: number }>("SELECT count(*) AS n FROM memories"))!.n;
  }

  // A skip scan of memories_by_user (one index probe per user of an organization): count(DISTINCT) reads every row.
  async users(): Promise<number> {
    return (await this.pg.one<{ n: number }>(
      `WITH RECURSIVE u(o, id) AS (
         (SELECT org_id, user_id FROM memories ORDER BY org_id, user_id LIMIT 1)
         UNION ALL SELECT n.org_id, n.user_id FROM u CROSS JOIN LATERAL (
           SELECT org_id, user_id FROM memories WHERE (org_id, user_id) > (u.o, u.id) ORDER BY org_id, user_id LIMIT 1
         ) n
       ) SELECT count(*)::int AS n FROM u`,
    ))!.n;
  }

  private get lock(): string {
    return this.writing ? " FOR UPDATE" : "";
  }
}
