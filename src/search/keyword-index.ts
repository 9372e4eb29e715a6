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
    const match = toFtsQuery(query);
    if (!match) return [];
    const { where, params } = filterSql(filter);
    const sql =
      `SELECT m.rowid AS rowid, -bm25(memories_fts) AS score FROM memories_fts ` +
      `JOIN memories m ON m.rowid = memories_fts.rowid ` +
      `WHERE memories_fts MATCH ? AND ${where} ORDER BY bm25(memories_fts) LIMIT ?`;
    return this.db.query<RankedRow, any[]>(sql).all(match, ...params, n);
  }
}
