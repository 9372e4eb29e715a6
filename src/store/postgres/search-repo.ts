// What ranking reads in PostgreSQL: full-text candidates (tsvector, ts_rank_cd), the rows a result
// shows, reply pairs — each statement inside the visibility filter (filter-sql.ts).
//
// Keyword ranking (docs/SEARCH-QUALITY.md has its LoCoMo numbers beside BM25's): the query's words
// (store/keyword-words.ts: the same words and stopwords as the SQLite store) are OR-ed in the 'english'
// configuration (Snowball stemming), and matches are ranked by ts_rank_cd with normalisation 1|32
// (cover density divided by 1 + log(length), scaled into 0..1). PostgreSQL has no BM25: no document
// frequency weighs a term, so a rare word counts as much as a common one.
import type { Owner } from "../repos/memory-repo";
import type { Pg } from "./connection";
import { filterSql } from "./filter-sql";
import { isStopword, MAX_TERMS, words } from "../keyword-words";
import type { HitRow, MemoryFilter, RankedRow, SearchRepo, TermDocs } from "../repos/search-repo";

/** A word's postings read at most (as in the SQLite store: a term in most memories weighs next to nothing). */
const MAX_POSTINGS = 100_000;
const INDEXABLE = /^[\p{L}\p{M}\p{N}]{1,64}$/u;

/** The tsqueries to try, in order (see toFtsQueries in store/sqlite/fts-query.ts: the same plan). */
export function toTsQueries(text: string): { config: "english" | "simple"; query: string }[] {
  const found = words(text);
  const all = found.filter((w) => w.length <= 64);
  const unique = [...new Set(all)];
  const content = unique.filter((w) => !isStopword(w));
  // Words are letters, marks and digits only: nothing in them is tsquery syntax.
  const anyOf = (terms: string[]) => terms.slice(0, MAX_TERMS).join(" | ");
  if (content.length) return [{ config: "english", query: anyOf(content) }];
  if (!all.length) return [];
  // Stopwords alone: the 'english' configuration drops them, so these match the 'simple' one (a phrase first).
  if (all.length < 2 || all.length < found.length) return [{ config: "simple", query: anyOf(unique) }];
  return [
    { config: "simple", query: all.slice(0, MAX_TERMS).join(" <-> ") },
    { config: "simple", query: anyOf(unique) },
  ];
}

const REPLY_SQL = (where: string) => `
  WITH pair AS (
    SELECT a.rowid AS question, a.memory AS text, (
      SELECT n.rowid FROM memories n
      WHERE n.org_id = a.org_id AND n.user_id = a.user_id AND n.created_at >= a.created_at AND n.created_at <= a.created_at + $1
        AND (n.created_at > a.created_at OR n.rowid > a.rowid) AND n.agent_id = a.agent_id AND n.session_id = a.session_id
      ORDER BY n.created_at, n.rowid LIMIT 1) AS reply
    FROM memories a WHERE a.rowid = ANY($2::bigint[]) AND a.org_id = $3 AND a.user_id = $4 AND strpos(a.memory, '?') > 0)
  SELECT pair.question AS question, pair.text AS text, m.rowid AS reply FROM pair JOIN memories m ON m.rowid = pair.reply
  WHERE ${where}`;

export class PgSearchRepo implements SearchRepo {
  constructor(private readonly pg: Pg) {}

  async keyword(filter: MemoryFilter, query: string, n: number): Promise<RankedRow[]> {
    const params: unknown[] = [];
    const where = filterSql(filter, params); // first: a bad filter is an error even when nothing matches
    for (const q of toTsQueries(query)) {
      const p = [...params];
      const tsq = `to_tsquery('${q.config}', $${p.push(q.query)})`;
      // The stored column for 'english'; 'simple' is computed over the user's visible rows only.
      const doc = q.config === "english" ? "m.fts" : "to_tsvector('simple', m.memory)";
      const ranked = await this.pg.all<RankedRow>(
        `SELECT m.rowid AS rowid, ts_rank_cd(${doc}, q, 33) AS score FROM memories m, ${tsq} q
         WHERE ${where} AND ${doc} @@ q ORDER BY score DESC, m.rowid DESC LIMIT $${p.push(n)}`,
        p,
      );
      if (ranked.length) return ranked;
    }
    return [];
  }

  /**
   * Per word, its memories through the stored 'english' tsvector (Snowball stems it as it stemmed the
   * memories; a word the configuration drops as a stopword matches nothing). The count is the user's
   * memories, visible or not, as in the SQLite store (an index-only count over memories_by_user).
   */
  async termDocs(o: Owner, words: readonly string[]): Promise<TermDocs> {
    const count = await this.pg.one<{ n: number }>(
      "SELECT count(*) AS n FROM memories WHERE org_id = $1 AND user_id = $2",
      [o.org, o.userId],
    );
    const rowids: number[][] = [];
    for (const w of words)
      rowids.push(
        INDEXABLE.test(w)
          ? (
              await this.pg.all<{ rowid: number }>(
                `SELECT rowid FROM memories WHERE org_id = $4 AND user_id = $1 AND fts @@ plainto_tsquery('english', $2)
                 ORDER BY rowid LIMIT $3`,
                [o.userId, w, MAX_POSTINGS, o.org],
              )
            ).map((r) => r.rowid)
          : [],
      );
    return { docs: count?.n ?? 0, rowids };
  }

  /** The lexemes of the user's tsvectors (no vocabulary table: this runs only for a word the user never wrote). */
  async vocabulary(o: Owner, prefix: string, limit: number): Promise<string[]> {
    if (!INDEXABLE.test(prefix)) return [];
    const rows = await this.pg.all<{ term: string }>(
      `SELECT DISTINCT t.lexeme AS term FROM memories m, unnest(m.fts) t
       WHERE m.org_id = $4 AND m.user_id = $1 AND starts_with(t.lexeme, $2) ORDER BY 1 LIMIT $3`,
      [o.userId, prefix, limit, o.org],
    );
    return rows.map((r) => r.term);
  }

  async indexTermDocs(o: Owner, terms: readonly string[]): Promise<number[][]> {
    if (!terms.length) return [];
    const rows = await this.pg.all<{ term: string; rowid: number }>(
      `SELECT DISTINCT t.lexeme AS term, m.rowid AS rowid FROM memories m, unnest(m.fts) t
       WHERE m.org_id = $3 AND m.user_id = $1 AND t.lexeme = ANY($2::text[]) ORDER BY 2`,
      [o.userId, terms, o.org],
    );
    return terms.map((term) => rows.filter((r) => r.term === term).map((r) => r.rowid));
  }

  async visible(filter: MemoryFilter, rowids: readonly number[], n: number): Promise<number[]> {
    if (!rowids.length || n <= 0) return [];
    const params: unknown[] = [rowids];
    const where = filterSql(filter, params);
    const rows = await this.pg.all<{ rowid: number }>(
      `SELECT m.rowid AS rowid FROM unnest($1::bigint[]) WITH ORDINALITY j(rowid, ord)
       JOIN memories m ON m.rowid = j.rowid WHERE ${where} ORDER BY j.ord LIMIT $${params.push(n)}`,
      params,
    );
    return rows.map((r) => r.rowid);
  }

  rows(filter: MemoryFilter, rowids: readonly number[]): Promise<HitRow[]> {
    if (!rowids.length) return Promise.resolve([]);
    const params: unknown[] = [rowids];
    const where = filterSql(filter, params);
    return this.pg.all<HitRow>(
      `SELECT m.rowid AS rowid, m.id AS id, m.memory AS memory, m.metadata AS metadata, m.created_at AS created_at,
         m.expires_at AS expires_at, m.superseded_by AS superseded_by, m.has_facts AS has_facts
       FROM memories m WHERE m.rowid = ANY($1::bigint[]) AND ${where}`,
      params,
    );
  }

  /**
   * Users without a superseded memory cost one probe of a partial index; the chain is walked only from
   * candidates that were superseded (as the SQLite store does).
   */
  async successors(filter: MemoryFilter, rowids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!rowids.length) return out;
    if (!(await this.pg.one(HAS_SUPERSEDED, [filter.org, filter.userId]))) return out;
    const params: unknown[] = [rowids, filter.userId, filter.org];
    const where = filterSql({ ...filter, includeSuperseded: false }, params);
    for (const r of await this.pg.all<{ start: number; rowid: number }>(SUCCESSORS_SQL(where), params))
      out.set(r.start, r.rowid);
    return out;
  }

  replies(
    filter: MemoryFilter,
    anchors: readonly number[],
    windowMs: number,
  ): Promise<{ question: number; text: string; reply: number }[]> {
    if (!anchors.length) return Promise.resolve([]);
    const params: unknown[] = [windowMs, anchors, filter.org, filter.userId];
    const where = filterSql(filter, params);
    return this.pg.all(REPLY_SQL(where), params);
  }
}

const HAS_SUPERSEDED =
  "SELECT 1 FROM memories WHERE org_id = $1 AND user_id = $2 AND superseded_by IS NOT NULL LIMIT 1";

/** From each superseded candidate along superseded_by to the memory that is current (depth-bounded against a cycle); 0 when that one is not visible. */
const SUCCESSORS_SQL = (where: string) =>
  `WITH RECURSIVE chain(start, id, next, depth) AS (
     SELECT m.rowid, m.id, m.superseded_by, 0 FROM memories m
       WHERE m.rowid = ANY($1::bigint[]) AND m.org_id = $3 AND m.user_id = $2 AND m.superseded_by IS NOT NULL
     UNION ALL
     SELECT c.start, s.id, s.superseded_by, c.depth + 1 FROM chain c JOIN memories s ON s.id = c.next AND s.org_id = $3 AND s.user_id = $2
       WHERE c.depth < 100
   )
   SELECT s.start AS start, coalesce((SELECT m.rowid FROM chain c JOIN memories m ON m.id = c.id
     WHERE c.start = s.start AND c.next IS NULL AND ${where}), 0) AS rowid
   FROM (SELECT DISTINCT start FROM chain) s`;
