// BM25 keyword ranking over the FTS5 index of memories, inside the user's visibility filter.
import type { Db } from "~/store/sqlite";
import { toFtsQuery } from "./fts-query";
import { filterSql, type MemoryFilter } from "./memory-filter";

export interface RankedRow {
  rowid: number;
  /** Higher is better (negated BM25). */
  score: number;
}

export class KeywordIndex {
  constructor(private readonly db: Db) {}

  rank(filter: MemoryFilter, query: string, n: number): RankedRow[] {
    const { where, params } = filterSql(filter);
    const terms = toFtsQuery(query);
    if (!terms) return [];
    const owner = this.db.query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?").get(filter.userId);
    if (!owner) return [];
    // The owner token narrows the match to this user's rows inside FTS5 (see 0006_fts_owner.sql);
    // the SQL filter below still enforces isolation on its own. Column weights: text 1, owner 0.
    const match = `owner:o${owner.id} AND (${terms})`;
    const sql =
      `SELECT m.rowid AS rowid, -bm25(memories_fts, 1.0, 0.0) AS score FROM memories_fts ` +
      `JOIN memories m ON m.rowid = memories_fts.rowid ` +
      `WHERE memories_fts MATCH ? AND ${where} ORDER BY bm25(memories_fts, 1.0, 0.0) LIMIT ?`;
    return this.db.query<RankedRow, any[]>(sql).all(match, ...params, n);
  }
}
