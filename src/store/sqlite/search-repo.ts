// What ranking reads in SQLite: BM25 over the FTS5 index, the rows a result shows, reply pairs —
// each statement inside the visibility filter (filter-sql.ts), so a worker's connection, where the
// server thread commits between statements, never shows what the filter hides.
import type { Db } from "./connection";
import { toFtsQueries } from "./fts-query";
import { ownerPrefix } from "./fts-tokens";
import { filterSql, type SqlParam } from "./filter-sql";
import { existingOwnerId } from "./fts-repo";
import type { HitRow, MemoryFilter, RankedRow, SearchRepo, TermDocs } from "../repos/search-repo";
import type { Owner } from "../repos/memory-repo";

/** How many of FTS5's best matches the fast path checks against the visibility filter, for n wanted. */
const FAST_WINDOW = (n: number) => 2 * n;
/** A word's postings read at most (a term in more of the user's memories weighs next to nothing). */
const MAX_POSTINGS = 100_000;
const INDEXABLE = /^[\p{L}\p{M}\p{N}]{1,64}$/u;

// The reply of each anchor: the next row of the user's index (memories_by_user) in the same agent and
// session, then kept only if it passes the search's own visibility filter. CROSS JOIN keeps SQLite
// from walking all the user's memories to find the anchors: it looks each one up by rowid.
const REPLY_SQL = (where: string) => `
  WITH pair AS (
    SELECT a.rowid AS question, a.memory AS text, (
      SELECT n.rowid FROM memories n
      WHERE n.org_id = a.org_id AND n.user_id = a.user_id AND n.created_at >= a.created_at AND n.created_at <= a.created_at + ?
        AND (n.created_at > a.created_at OR n.rowid > a.rowid) AND n.agent_id = a.agent_id AND n.session_id = a.session_id
      ORDER BY n.created_at, n.rowid LIMIT 1) AS reply
    FROM json_each(?) j CROSS JOIN memories a ON a.rowid = j.value
    WHERE a.org_id = +? AND a.user_id = +? AND instr(a.memory, '?') > 0)
  SELECT pair.question AS question, pair.text AS text, m.rowid AS reply FROM pair JOIN memories m ON m.rowid = pair.reply
  WHERE ${where}`;

export class SqliteSearchRepo implements SearchRepo {
  constructor(private readonly db: Db) {}

  private prefixOf(o: Owner): string | null {
    const id = existingOwnerId(this.db, o);
    return id === null ? null : ownerPrefix(id);
  }

  /**
   * One MATCH per word in the user's namespace (FTS5 stems it as it stemmed the memories): rowids only,
   * no BM25, which reads each document's length. At 100k memories (1k a user) all of a query's words
   * cost ~45 µs, about half of one BM25 query over the same postings.
   */
  async termDocs(o: Owner, words: readonly string[]): Promise<TermDocs> {
    const docs =
      this.db
        .query<{ n: number }, [string, string]>("SELECT n FROM memory_counts WHERE org_id = ? AND user_id = ?")
        .get(o.org, o.userId)?.n ?? 0;
    const prefix = this.prefixOf(o);
    if (prefix === null) return { docs, rowids: words.map(() => []) };
    const match = this.db.query<[number], [string, number]>(
      "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT +?",
    );
    return {
      docs,
      rowids: words.map((w) =>
        INDEXABLE.test(w) ? match.values(`"${prefix}${w}"`, MAX_POSTINGS).map((r) => r[0] as number) : [],
      ),
    };
  }

  async vocabulary(o: Owner, prefix: string, limit: number): Promise<string[]> {
    const owner = this.prefixOf(o);
    if (owner === null || !INDEXABLE.test(prefix)) return [];
    const low = owner + prefix;
    return this.db
      .query<[string], [string, string, number]>(
        "SELECT term FROM memories_fts_terms WHERE term >= ? AND term < ? LIMIT +?",
      )
      .values(low, `${low}\uffff`, limit)
      .map((r) => (r[0] as string).slice(owner.length));
  }

  async indexTermDocs(o: Owner, terms: readonly string[]): Promise<number[][]> {
    const owner = this.prefixOf(o);
    if (owner === null) return terms.map(() => []);
    const docs = this.db.query<[number], [string]>("SELECT DISTINCT doc FROM memories_fts_instances WHERE term = ?");
    return terms.map((t) => docs.values(owner + t).map((r) => r[0] as number));
  }

  /** In windows of growing size: most candidates are visible, so the first window usually answers. */
  async visible(filter: MemoryFilter, rowids: readonly number[], n: number): Promise<number[]> {
    const { where, params } = filterSql(filter);
    const check = this.db.query<[number], any[]>(
      `SELECT m.rowid FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where} ORDER BY j.key`,
    );
    const out: number[] = [];
    for (let start = 0, size = 2 * n; start < rowids.length && out.length < n; start += size, size *= 4)
      for (const [rowid] of check.values(JSON.stringify(rowids.slice(start, start + size)), ...params))
        if (out.length < n) out.push(rowid as number);
    return out;
  }

  /**
   * Terms carry the user's namespace (fts-tokens.ts): FTS5 reads only this user's postings.
   * The SQL visibility filter (user, agent, session, expiry, metadata) still decides on its own what
   * is returned. Fast path: FTS5 ranks all the user's matches, and only its best 2n are looked up in
   * `memories` for the filter (joining every match cost ~60 % of a search at 100k memories). When the
   * filter hides so many that fewer than n of a full window survive, the exact query runs instead.
   * The query's MATCH expressions (fts-query.ts) are tried in turn until one finds a visible memory.
   */
  async keyword(filter: MemoryFilter, query: string, n: number): Promise<RankedRow[]> {
    const { where, params } = filterSql(filter); // first: a bad filter is an error even when nothing matches
    const owner = this.prefixOf(filter);
    if (owner === null) return [];
    for (const match of toFtsQueries(query, owner)) {
      const ranked = this.rankMatch(match, where, params, n);
      if (ranked.length) return ranked;
    }
    return [];
  }

  private rankMatch(match: string, where: string, params: SqlParam[], n: number): RankedRow[] {
    const window = FAST_WINDOW(n);
    // LEFT JOIN: one row per FTS5 match in the window, `visible` null when the filter hides it.
    const best = this.db
      .query<{ rowid: number; score: number; visible: number | null }, any[]>(
        `SELECT f.rowid AS rowid, -f.s AS score, m.rowid AS visible FROM ` +
          `(SELECT rowid, bm25(memories_fts) AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT +?) f ` +
          `LEFT JOIN memories m ON m.rowid = f.rowid AND ${where} ORDER BY f.s`,
      )
      .all(match, window, ...params);
    const shown = best.filter((r) => r.visible !== null).slice(0, n);
    if (shown.length === n || best.length < window) return shown.map(({ rowid, score }) => ({ rowid, score }));
    return this.db
      .query<RankedRow, any[]>(
        `SELECT m.rowid AS rowid, -bm25(memories_fts) AS score FROM memories_fts ` +
          `JOIN memories m ON m.rowid = memories_fts.rowid ` +
          `WHERE memories_fts MATCH ? AND ${where} ORDER BY bm25(memories_fts) LIMIT +?`,
      )
      .all(match, ...params, n);
  }

  /**
   * CROSS JOIN from the id list: with `rowid IN (…)` SQLite walked all the user's memories through
   * memories_by_user (88 → ~20 µs at 1k memories a user).
   */
  async rows(filter: MemoryFilter, rowids: readonly number[]): Promise<HitRow[]> {
    if (!rowids.length) return [];
    const { where, params } = filterSql(filter);
    return this.db
      .query<HitRow, any[]>(
        `SELECT m.rowid AS rowid, m.id AS id, m.memory AS memory, m.metadata AS metadata, m.created_at AS created_at, m.expires_at AS expires_at, m.superseded_by AS superseded_by, m.has_facts AS has_facts ` +
          `FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where}`,
      )
      .all(JSON.stringify(rowids), ...params);
  }

  /**
   * Users without a superseded memory (most, and every user of a store without facts) cost one probe of a
   * partial index; the chain is walked only from candidates that were superseded.
   */
  async successors(filter: MemoryFilter, rowids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!rowids.length || !this.db.query(HAS_SUPERSEDED).get(filter.org, filter.userId)) return out;
    const { where, params } = filterSql({ ...filter, includeSuperseded: false });
    const rows = this.db
      .query<{ start: number; rowid: number }, any[]>(SUCCESSORS_SQL(where))
      .all(JSON.stringify(rowids), filter.org, filter.userId, ...params);
    for (const r of rows) out.set(r.start, r.rowid);
    return out;
  }

  async replies(filter: MemoryFilter, anchors: readonly number[], windowMs: number) {
    if (!anchors.length) return [];
    const { where, params } = filterSql(filter);
    return this.db
      .query<{ question: number; text: string; reply: number }, any[]>(REPLY_SQL(where))
      .all(windowMs, JSON.stringify(anchors), filter.org, filter.userId, ...params);
  }
}

/**
 * Named, because SQLite chose the covering index by scope instead (it holds superseded_by too) and read
 * every entry of a user who has no superseded memory: 170 µs a search at 1k memories a user, against 7.
 */
const HAS_SUPERSEDED =
  "SELECT 1 FROM memories INDEXED BY memories_superseded_of_user WHERE org_id = ? AND user_id = ? AND superseded_by IS NOT NULL LIMIT 1";

/** From each superseded candidate along superseded_by to the memory that is current (depth-bounded against a cycle); 0 when that one is not visible. */
const SUCCESSORS_SQL = (where: string) =>
  `WITH RECURSIVE chain(start, id, next, depth) AS (
     SELECT m.rowid, m.id, m.superseded_by, 0 FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value
       WHERE m.org_id = ? AND m.user_id = ? AND m.superseded_by IS NOT NULL
     UNION ALL
     SELECT c.start, s.id, s.superseded_by, c.depth + 1 FROM chain c JOIN memories s ON s.id = c.next WHERE c.depth < 100
   )
   SELECT s.start AS start, coalesce((SELECT m.rowid FROM chain c JOIN memories m ON m.id = c.id
     WHERE c.start = s.start AND c.next IS NULL AND ${where}), 0) AS rowid
   FROM (SELECT DISTINCT start FROM chain) s`;
