// Ranking, the read-only heart of a search: BM25 keyword candidates, vector candidates, RRF fusion,
// then replies joining their ranked questions. Reads through one store, so it runs either on the
// server's thread or in a search worker (rank-pool.ts) over the worker's own store; both run this
// same code.
import type { HitRow, MemoryFilter, Repos, Store, VectorSpace } from "~/store/store";
import { ranking, rrfScores, type Ranked } from "./fusion";
import { addReplies, isQuestion, REPLY_ANCHORS, replies } from "./reply-context";

/**
 * BM25 candidates before fusion. The fast path looks up twice as many rows for the visibility filter,
 * so fewer candidates cost less (keyword ranking ≈ 12 % cheaper at 100k memories than with 5·limit).
 * LoCoMo hybrid R@10 with 5·limit / 3·limit / 2·limit: at limit 50, dev 70.1 / 70.1 / 70.1, test 65.6 /
 * 65.7 / 65.8; at limit 10, dev 69.7 / 69.7 / 69.9, test 65.4 / 65.0 / 65.2 — flat within noise.
 */
const KEYWORD_CANDIDATES = (limit: number) => Math.max(20, limit * 2);
/**
 * Vector candidates before fusion. At half weight and k = 5 a vector rank past 20 adds < 0.02 against
 * the keyword head's 0.17, and sqlite-vec's KNN costs grow with k (358 → 220 µs for k 50 → 10 at 100k
 * memories): LoCoMo R@10 with k = 50 / 30 / 20 / 15 was dev 70.1 / 69.9 / 70.2 / 70.8, test 65.7 /
 * 65.9 / 65.3 / 65.3 — flat within noise.
 */
const VECTOR_CANDIDATES = (limit: number) => Math.max(20, limit * 2);

/**
 * Hybrid fusion, tuned on the LoCoMo dev split (docs/SEARCH-QUALITY.md). A small k instead of Cormack's
 * 60 lets each list's head decide: BM25's first hits are usually right, and agreement deep in both
 * tails should not outvote them. The vector list votes at half weight because the built-in static
 * model ranks worse than BM25 on its own (R@10 49 vs 62); equal weights with k = 60 fell below
 * keyword-only. With reply context, R@10 is flat (±0.3) for k 5–10 and vector weights 0.3–0.7 (k = 20
 * loses ≈ 1); k = 5 gains 2 points of MRR over k = 10.
 */
const HYBRID_RRF_K = 5;
const HYBRID_WEIGHTS = [0.5, 1]; // [vector, keyword]

export interface RankRequest {
  filter: MemoryFilter;
  query: string;
  /** The query's embedding; null = keyword ranking only. */
  vector: Float32Array | null;
  /** The current model's vector space; null without a model. */
  vectors: VectorSpace | null;
  limit: number;
  /** Eval hook: rank by vectors alone ("semantic only"). */
  vectorOnly: boolean;
  /** Share of a question's score its reply receives; 0 = off. */
  replyShare: number;
}

/** A ranked memory with what a search result shows: read by the ranker, so a worker answers in one message. */
export interface SearchHit extends HitRow {
  score: number;
}

type Row = HitRow;

/** The ranked memories that have a (visible) row, with it. */
const withRows = (ranked: Ranked<number>[], rows: ReadonlyMap<number, Row>): SearchHit[] =>
  ranked.flatMap((r) => {
    const row = rows.get(r.id);
    return row ? [{ ...row, score: r.score }] : [];
  });

export class Ranker {
  constructor(private readonly store: Store) {}

  /**
   * The best `limit` visible memories, best first. With reply context, the rows of the top anchors are
   * read first, in one statement: their texts say which anchors are questions, and they hold most of
   * the answer, so a search without a question among its anchors runs no further statement.
   */
  rank(req: RankRequest): Promise<SearchHit[]> {
    return this.store.read((r) => this.rankIn(r, req));
  }

  private async rankIn(r: Repos, req: RankRequest): Promise<SearchHit[]> {
    const scores = await this.firstStage(r, req);
    const withReplies = req.replyShare > 0;
    const anchors = ranking(scores).slice(0, withReplies ? REPLY_ANCHORS(req.limit) : req.limit);
    const rows = await this.rows(
      r,
      req.filter,
      anchors.map((a) => a.id),
    );
    const questions = withReplies
      ? anchors.filter((a) => isQuestion(rows.get(a.id)?.memory ?? "")).map((a) => a.id)
      : [];
    if (!questions.length) return withRows(anchors.slice(0, req.limit), rows);
    addReplies(scores, await replies(r.search, req.filter, questions), req.replyShare);
    const top = ranking(scores).slice(0, req.limit);
    const read = new Set(anchors.map((a) => a.id));
    for (const [rowid, row] of await this.rows(
      r,
      req.filter,
      top.map((r) => r.id).filter((id) => !read.has(id)),
    ))
      rows.set(rowid, row);
    return withRows(top, rows);
  }

  /**
   * Rows by rowid, through the same visibility filter: on a worker's connection the server thread
   * commits between statements, and a memory deleted or expired meanwhile must not show.
   */
  private async rows(r: Repos, filter: MemoryFilter, rowids: number[]): Promise<Map<number, Row>> {
    return new Map((await r.search.rows(filter, rowids)).map((row) => [row.rowid, row]));
  }

  /**
   * Candidate scores: BM25 alone without a vector, else RRF of vectors and keywords. Candidates include
   * superseded memories, each standing for the current memory that replaced it (SPEC §11): "where do I
   * live" matches "I live in Berlin", whose newer value "I moved to Lisbon" shares no word with it. With
   * include_superseded both are shown, the current one right after the old one.
   */
  private async firstStage(r: Repos, req: RankRequest): Promise<Map<number, number>> {
    const { query, limit } = req;
    const filter = { ...req.filter, includeSuperseded: true };
    let vec =
      req.vectors && req.vector
        ? (await r.vectors.rank(req.vectors, filter, req.vector, VECTOR_CANDIDATES(limit))).map((h) => h.rowid)
        : null;
    let kw = req.vectorOnly ? [] : await r.search.keyword(filter, query, KEYWORD_CANDIDATES(limit));
    const next = await r.search.successors(req.filter, [...(vec ?? []), ...kw.map((h) => h.rowid)]);
    if (next.size) {
      const keep = req.filter.includeSuperseded === true;
      vec =
        vec &&
        standIn(
          vec.map((rowid) => ({ rowid })),
          next,
          keep,
        ).map((h) => h.rowid);
      kw = standIn(kw, next, keep);
    }
    // Cosines are not zero-based (unrelated texts still score ≈ 0.5), so reply shares need rank-based scores.
    if (req.vectorOnly) return rrfScores([vec ?? []], [1], HYBRID_RRF_K);
    if (!vec) return new Map(kw.map((h) => [h.rowid, h.score]));
    return rrfScores([vec, kw.map((h) => h.rowid)], HYBRID_WEIGHTS, HYBRID_RRF_K);
  }
}

/**
 * A ranked list with each superseded memory replaced by its successor (none when 0), which keeps its best
 * place; with `keep` (include_superseded) the superseded one stays and its successor comes right after it.
 */
function standIn<T extends { rowid: number }>(
  ranked: readonly T[],
  next: ReadonlyMap<number, number>,
  keep: boolean,
): T[] {
  const seen = new Set<number>([0]);
  const once = (h: T, rowid: number) => (seen.has(rowid) || !seen.add(rowid) ? [] : [{ ...h, rowid }]);
  return ranked.flatMap((h) => {
    const successor = next.get(h.rowid);
    if (successor === undefined) return once(h, h.rowid);
    return keep ? [...once(h, h.rowid), ...once(h, successor)] : once(h, successor);
  });
}
