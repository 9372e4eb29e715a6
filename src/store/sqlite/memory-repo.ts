// The memories table family in SQLite (memories, memory_versions; the FTS5 index kept in step by
// fts-repo.ts); every statement a client asks for is scoped by organization and user_id. Callers own transactions.
import type { Db } from "./connection";
import { forgetOwner, indexMemory } from "./fts-repo";
import { BatchTail } from "./group-commit";
import {
  insertValues,
  type ListedRow,
  type MemoryRepo,
  type MemoryRow,
  type NewMemory,
  type Owner,
  ownerOf,
  type Predecessor,
  type VersionRow,
} from "../repos/memory-repo";
import { normaliseText, textKey } from "~/shared/text-key";

const VISIBLE = "(expires_at IS NULL OR expires_at > ?)";
/** A row's earned retention is over at ? (the sticky floor of SPEC §5.4). */
export const RETENTION_OVER = "(retain_until IS NULL OR retain_until <= ?)";
/** A row's retain_until raised to ? (an update earns anew; nothing lowers it). */
export const RAISED = "nullif(max(coalesce(retain_until, 0), coalesce(?, 0)), 0)";
const CURRENT = " AND superseded_by IS NULL";

export class SqliteMemoryRepo implements MemoryRepo {
  constructor(
    private readonly db: Db,
    /** Where a group commit's new rows wait for their keyword-index entries (group-commit.ts). */
    private readonly tail: BatchTail = new BatchTail(),
    /** Told when text was indexed (keyword-upkeep.ts). */
    private readonly indexed: () => void = () => {},
  ) {}

  async insert(m: NewMemory): Promise<number> {
    const r = this.db
      .query<{ rowid: number }, any[]>(
        `INSERT INTO memories (id, user_id, agent_id, session_id, memory, metadata, importance, source_type, expires_at,
           conversation_ref, immutable_ref, version, created_at, updated_at, retain_until, text_key, has_facts, org_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) RETURNING rowid`,
      )
      .get(...insertValues(m));
    const rowid = r!.rowid;
    // A row a later job of the batch deleted has no entry to get (none is in the group's jobs today).
    this.tail.later(() => {
      if (!this.db.query("SELECT 1 FROM memories WHERE rowid = ?").get(rowid)) return;
      indexMemory(this.db, rowid, { org: m.org_id, userId: m.user_id }, m.memory, true);
      this.indexed();
    });
    return rowid;
  }

  async get(o: Owner, id: string, now: number, agentId?: string): Promise<MemoryRow | null> {
    if (agentId !== undefined)
      return this.db
        .query<MemoryRow, any[]>(
          `SELECT rowid, * FROM memories WHERE id = ? AND org_id = ? AND user_id = ? AND ${VISIBLE} AND agent_id = ?`,
        )
        .get(id, o.org, o.userId, now, agentId);
    return this.db
      .query<MemoryRow, any[]>(
        `SELECT rowid, * FROM memories WHERE id = ? AND org_id = ? AND user_id = ? AND ${VISIBLE}`,
      )
      .get(id, o.org, o.userId, now);
  }

  /**
   * Newest first; `after` is the (created_at, rowid) of the last row of the previous page. Only the
   * columns a listing shows: reading all fifteen cost a third more per page; superseded_by only when the
   * page may hold superseded memories (each column of each row is a value made for JavaScript).
   */
  async page(q: {
    org: string;
    userId: string;
    agentId?: string;
    now: number;
    limit: number;
    after?: [number, number];
    includeSuperseded?: boolean;
  }): Promise<ListedRow[]> {
    const agent = (q.agentId !== undefined ? " AND agent_id = +?" : "") + (q.includeSuperseded ? "" : CURRENT);
    const successor = q.includeSuperseded ? ", superseded_by" : "";
    const after = q.after ? " AND (created_at < ? OR (created_at = +? AND rowid < ?))" : "";
    const params: any[] = [q.org, q.userId, q.now];
    if (q.agentId !== undefined) params.push(q.agentId);
    if (q.after) params.push(q.after[0], q.after[0], q.after[1]);
    return this.db
      .query<ListedRow, any[]>(
        `SELECT rowid, id, memory, metadata, agent_id, session_id, created_at, has_facts${successor} FROM memories
         WHERE org_id = +? AND user_id = +? AND ${VISIBLE}${agent}${after} ORDER BY created_at DESC, rowid DESC LIMIT +?`,
      )
      .all(...params, q.limit);
  }

  /** Visible memories, and the earliest expiry among them (when the count next changes without a write). */
  async count(
    o: Owner,
    now: number,
    agentId?: string,
    includeSuperseded = false,
  ): Promise<{ n: number; nextExpiry: number | null }> {
    const agent = (agentId !== undefined ? " AND agent_id = ?" : "") + (includeSuperseded ? "" : CURRENT);
    const params: any[] = agentId !== undefined ? [o.org, o.userId, now, agentId] : [o.org, o.userId, now];
    return this.db
      .query<{ n: number; nextExpiry: number | null }, any[]>(
        `SELECT count(*) AS n, min(expires_at) AS nextExpiry FROM memories WHERE org_id = ? AND user_id = ? AND ${VISIBLE}${agent}`,
      )
      .get(...params)!;
  }

  /** Keeps the current text as a previous version, then writes the new one. */
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
    this.db
      .query(
        "INSERT OR REPLACE INTO memory_versions (memory_id, version, memory, metadata, created_at, retain_until) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(row.id, row.version, row.memory, row.metadata, row.updated_at, row.retain_until);
    this.db
      .query(
        `UPDATE memories SET memory = ?, metadata = ?, importance = ?, source_type = ?, expires_at = ?, version = version + 1,
           updated_at = ?, retain_until = ${RAISED} WHERE rowid = ? AND user_id = ?`,
      )
      .run(
        next.memory,
        next.metadata,
        next.importance,
        next.source_type,
        next.expires_at,
        now,
        next.retain_until,
        row.rowid,
        row.user_id,
      );
    if (next.memory !== row.memory) {
      indexMemory(this.db, row.rowid, ownerOf(row), next.memory);
      this.indexed();
    }
  }

  async versions(o: Owner, id: string): Promise<VersionRow[]> {
    return this.db
      .query<VersionRow, any[]>(
        `SELECT v.version, v.memory, v.metadata, v.created_at FROM memory_versions v JOIN memories m ON m.id = v.memory_id
         WHERE m.id = +? AND m.org_id = +? AND m.user_id = +? ORDER BY v.version DESC`,
      )
      .all(id, o.org, o.userId);
  }

  /** The memory spaces (agents) the user has memories in. */
  async spacesOfUser(o: Owner): Promise<string[]> {
    return this.db
      .query<{ a: string }, [string, string]>(
        "SELECT DISTINCT agent_id AS a FROM memories WHERE org_id = ? AND user_id = ?",
      )
      .all(o.org, o.userId)
      .map((r) => r.a);
  }

  async deleteForUser(
    o: Owner,
    agentId: string,
    before: number,
    now: number,
  ): Promise<{ rowid: number; id: string }[]> {
    return this.db
      .query<{ rowid: number; id: string }, [string, string, string, number, number]>(
        `DELETE FROM memories WHERE org_id = ? AND user_id = ? AND agent_id = ? AND updated_at < ? AND ${RETENTION_OVER}
         RETURNING rowid, id`,
      )
      .all(o.org, o.userId, agentId, before, now);
  }

  async countForUser(o: Owner, agentId?: string): Promise<number> {
    if (agentId !== undefined)
      return this.db
        .query<{ n: number }, [string, string, string]>(
          "SELECT count(*) AS n FROM memories WHERE org_id = ? AND user_id = ? AND agent_id = ?",
        )
        .get(o.org, o.userId, agentId)!.n;
    return this.db
      .query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM memories WHERE org_id = ? AND user_id = ?")
      .get(o.org, o.userId)!.n;
  }

  async deleteByRowids(rowids: number[]): Promise<void> {
    this.db.query("DELETE FROM memories WHERE rowid IN (SELECT value FROM json_each(?))").run(JSON.stringify(rowids));
  }

  async deleteVersions(items: { memoryId: string; version: number }[]): Promise<void> {
    const del = this.db.query("DELETE FROM memory_versions WHERE memory_id = ? AND version = ?");
    for (const i of items) del.run(i.memoryId, i.version);
  }

  async forgetUser(o: Owner): Promise<boolean> {
    return forgetOwner(this.db, o);
  }

  async recentTexts(o: Owner, n: number): Promise<string[]> {
    return this.db
      .query<{ memory: string }, [string, string, number]>(
        "SELECT memory FROM memories WHERE org_id = +? AND user_id = +? ORDER BY created_at DESC, rowid DESC LIMIT +?",
      )
      .all(o.org, o.userId, n)
      .map((r) => r.memory);
  }

  async sameText(q: { org: string; userId: string; agentId: string; sessionId: string; key: number; now: number }) {
    return this.db
      .query<{ rowid: number; id: string; memory: string }, any[]>(
        `SELECT rowid, id, memory FROM memories WHERE org_id = ? AND user_id = ? AND text_key = ? AND agent_id = ?
           AND session_id = ? AND superseded_by IS NULL AND ${VISIBLE}`,
      )
      .all(q.org, q.userId, q.key, q.agentId, q.sessionId, q.now);
  }

  async supersede(o: Owner, ids: readonly string[], by: string): Promise<string[]> {
    if (!ids.length) return [];
    return this.db
      .query<{ id: string }, [string, string, string, string]>(
        `UPDATE memories SET superseded_by = ? WHERE org_id = ? AND user_id = ? AND superseded_by IS NULL
           AND id IN (SELECT value FROM json_each(?)) RETURNING id`,
      )
      .all(by, o.org, o.userId, JSON.stringify(ids))
      .map((r) => r.id);
  }

  async markFacts(rowid: number): Promise<void> {
    this.db.query("UPDATE memories SET has_facts = 1 WHERE rowid = ? AND has_facts = 0").run(rowid);
  }

  async setTextKey(rowid: number, key: number): Promise<void> {
    this.db.query("UPDATE memories SET text_key = ? WHERE rowid = ?").run(key, rowid);
  }

  /** Each memory looked up by its successor's id (SQLite otherwise walked all the user's superseded memories per id). */
  async supersedes(o: Owner, ids: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    const rows = this.db
      .query<{ by: string; id: string }, [string, string, string]>(
        `SELECT m.superseded_by AS by, m.id FROM json_each(?) j CROSS JOIN memories m INDEXED BY memories_by_successor ON m.superseded_by = j.value
         WHERE m.org_id = +? AND m.user_id = +? ORDER BY m.created_at DESC, m.rowid DESC`,
      )
      .all(JSON.stringify(ids), o.org, o.userId);
    for (const r of rows) out.set(r.by, [...(out.get(r.by) ?? []), r.id]);
    return out;
  }

  /** A chain is short (one link per change of a fact); the depth bound only guards against a cycle. */
  async predecessors(o: Owner, id: string): Promise<Predecessor[]> {
    const rows = this.db
      .query<MemoryRow, [string, string, string, string, string]>(
        `WITH RECURSIVE chain(id, depth) AS (
           SELECT id, 1 FROM memories WHERE superseded_by = +? AND org_id = +? AND user_id = +?
           UNION SELECT m.id, c.depth + 1 FROM chain c JOIN memories m ON m.superseded_by = c.id WHERE c.depth < 1000
         )
         SELECT m.rowid, m.* FROM chain c JOIN memories m ON m.id = c.id WHERE m.org_id = +? AND m.user_id = +?
         ORDER BY m.created_at DESC, m.rowid DESC`,
      )
      .all(id, o.org, o.userId, o.org, o.userId);
    return Promise.all(rows.map(async (r) => ({ ...r, versions: await this.versions(o, r.id) })));
  }

  async total(): Promise<number> {
    return this.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memories").get()!.n;
  }

  // memory_counts has one row per user (of an organization) with memories, kept by triggers: count(DISTINCT)
  // over memories read every row of an index (13–60 ms at 100k memories), on each /metrics scrape.
  async users(): Promise<number> {
    return this.db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_counts").get()!.n;
  }
}

/** Migration 15's code step: the text key of every memory stored before it, in one pass. */
export function fillTextKeys(db: Db): void {
  const set = db.query("UPDATE memories SET text_key = ? WHERE rowid = ?");
  for (const r of db.query<{ rowid: number; memory: string }, []>("SELECT rowid, memory FROM memories").iterate())
    set.run(textKey(normaliseText(r.memory)), r.rowid);
}
