// BM25 keyword ranking over the FTS5 index of memories, inside the user's visibility filter.
import type { Db } from "~/store/sqlite";
import { toFtsQuery } from "./fts-query";
import { ownerPrefix } from "~/shared/fts-tokens";
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
    const owner = this.db.query<{ id: number }, [string]>("SELECT id FROM fts_owners WHERE user_id = ?").get(filter.userId);
    if (!owner) return [];
    // Terms carry the user's namespace (shared/fts-tokens.ts): FTS5 reads only this user's
    // postings. The SQL filter below still enforces isolation on its own.
    const match = toFtsQuery(query, ownerPrefix(owner.id));
    if (!match) return [];
    const sql =
      `SELECT m.rowid AS rowid, -bm25(memories_fts) AS score FROM memories_fts ` +
      `JOIN memories m ON m.rowid = memories_fts.rowid ` +
      `WHERE memories_fts MATCH ? AND ${where} ORDER BY bm25(memories_fts) LIMIT ?`;
    return this.db.query<RankedRow, any[]>(sql).all(match, ...params, n);
  }
}
