// BM25 keyword ranking over the FTS5 index of memories, inside the user's visibility filter.
import type { Db } from "~/store/sqlite";
import { toFtsQueries } from "./fts-query";
import { ownerPrefix } from "~/shared/fts-tokens";
import { filterSql, type MemoryFilter, type SqlParam } from "./memory-filter";

export interface RankedRow {
  rowid: number;
  /** Higher is better (negated BM25). */
  score: number;
}

/** How many of FTS5's best matches the fast path checks against the visibility filter, for n wanted. */
const FAST_WINDOW = (n: number) => 2 * n;

export class KeywordIndex {
  constructor(private readonly db: Db) {}

  /**
   * Terms carry the user's namespace (shared/fts-tokens.ts): FTS5 reads only this user's postings.
   * The SQL visibility filter (user, agent, session, expiry, metadata) still decides on its own what
   * is returned. Fast path: FTS5 ranks all the user's matches, and only its best 2n are looked up in
   * `memories` for the filter (joining every match cost ~60 % of a search at 100k memories). When the
   * filter hides so many that fewer than n of a full window survive, the exact query runs instead.
   * The query's MATCH expressions (fts-query.ts) are tried in turn until one finds a visible memory.
   */
  rank(filter: MemoryFilter, query: string, n: number): RankedRow[] {
    const { where, params } = filterSql(filter); // first: a bad filter is an error even when nothing matches
    const owner = this.db
      .query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?")
      .get(filter.userId);
    if (!owner) return [];
    for (const match of toFtsQueries(query, ownerPrefix(owner.id))) {
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
          `(SELECT rowid, bm25(memories_fts) AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT ?) f ` +
          `LEFT JOIN memories m ON m.rowid = f.rowid AND ${where} ORDER BY f.s`,
      )
      .all(match, window, ...params);
    const shown = best.filter((r) => r.visible !== null).slice(0, n);
    if (shown.length === n || best.length < window) return shown.map(({ rowid, score }) => ({ rowid, score }));
    return this.db
      .query<RankedRow, any[]>(
        `SELECT m.rowid AS rowid, -bm25(memories_fts) AS score FROM memories_fts ` +
          `JOIN memories m ON m.rowid = memories_fts.rowid ` +
          `WHERE memories_fts MATCH ? AND ${where} ORDER BY bm25(memories_fts) LIMIT ?`,
      )
      .all(match, ...params, n);
  }
}
