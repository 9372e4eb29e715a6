// Search: keyword (FTS5 BM25) always; semantic (sqlite-vec) when an embedder is ready; hybrid = RRF of
// both (+ an optional graph boost); then replies to ranked questions join in. Also owns vector writes
// and the background re-embedding after a model change.
import type { Db } from "~/store/sqlite";
import type { Logger } from "~/shared/logger";
import type { Embedder } from "./embedder";
import { KeywordIndex } from "./keyword-index";
import { VectorIndex, type VectorRow } from "./vector-index";
import type { MemoryFilter } from "./memory-filter";
import { addBonus, ranking, rrfScores, type Ranked } from "./fusion";
import { LruCache } from "./lru-cache";
import { commonWords, recentTexts, withoutCommon } from "./query-focus";
import { GraphBoost } from "./graph-boost";
import { addReplies, REPLY_ANCHORS, REPLY_SHARE, ReplyContext } from "./reply-context";

export type SearchMode = "hybrid" | "keyword";
export type SemanticState = "off" | "loading" | "ready" | "failed";

/** How many candidates each ranking contributes before fusion (50–250 made no difference on LoCoMo dev). */
const CANDIDATES = (limit: number) => Math.max(50, limit * 5);

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

/**
 * Graph boost weight, relative to the keyword list's first place (1 / (k + 1)): 0 = off. Off by default:
 * on LoCoMo dev it changed nothing (R@10 −0.1 to 0.0 for 0.1–1) since the rule extractor finds few entities in
 * chat and BM25 already ranks by the rare names it does find (docs/SEARCH-QUALITY.md).
 */
export const GRAPH_BOOST = 0;

export interface SearchStatus {
  mode: SearchMode;
  model: string | null;
  semantic: SemanticState;
  error?: string;
  reembed: { pending: number; done: number };
}

export class SearchService {
  private readonly keyword: KeywordIndex;
  private readonly graph: GraphBoost;
  private readonly replyContext: ReplyContext;
  private vectors: VectorIndex | null = null;
  private state: SemanticState;
  private error?: string;
  private readonly queryVectors = new LruCache<string, Float32Array | null>(2000);
  private readonly commonByUser = new LruCache<string, Set<string>>(10_000);
  private reembed = { pending: 0, done: 0 };
  queryCacheHits = 0;
  queryCacheMisses = 0;
  /** Eval hook (scripts/eval-locomo.ts measures "semantic only"): rank by vectors alone. The API never sets it. */
  vectorOnly = false;
  /** Tuning knobs (eval flags --graph-boost, --reply-share); the API never sets them. */
  graphBoost = GRAPH_BOOST;
  replyShare = REPLY_SHARE;

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder | null,
    private readonly logger: Logger,
  ) {
    this.keyword = new KeywordIndex(db);
    this.graph = new GraphBoost(db);
    this.replyContext = new ReplyContext(db);
    this.state = embedder ? "loading" : "off";
  }

  private starting: Promise<void> | null = null;

  /**
   * Loads the model (idempotent); on failure search stays keyword-only and health reports degraded.
   * The server listens meanwhile: writes and searches wait for the load instead of silently
   * skipping vectors, and /health says `loading`.
   */
  start(): Promise<void> {
    return (this.starting ??= this.load());
  }

  private async load(): Promise<void> {
    if (!this.embedder) return;
    try {
      await this.embedder.ready();
      this.vectors = new VectorIndex(this.db, this.embedder.modelId, this.embedder.dimensions);
      this.state = "ready";
    } catch (e) {
      this.state = "failed";
      this.error = (e as Error).message;
      this.logger.error("embedding model failed to load; search is keyword-only", { model: this.embedder.modelId, error: this.error });
    }
  }

  private async settled(): Promise<void> {
    if (this.state === "loading") await this.start();
  }

  status(): SearchStatus {
    return {
      mode: this.state === "ready" || this.state === "loading" ? "hybrid" : "keyword",
      model: this.embedder?.modelId ?? null,
      semantic: this.state,
      ...(this.error ? { error: this.error } : {}),
      reembed: { ...this.reembed },
    };
  }

  get modelId(): string | null {
    return this.state === "ready" ? this.embedder!.modelId : null;
  }

  /** Embeds texts for storage; null when semantic search is not available. */
  async embed(texts: string[]): Promise<(Float32Array | null)[] | null> {
    await this.settled();
    if (this.state !== "ready" || !texts.length) return null;
    return this.embedder!.embed(texts);
  }

  /** Call inside the write transaction that stores the memories. */
  writeVectors(rows: VectorRow[]): void {
    this.vectors?.upsert(rows);
  }

  deleteVectors(rowids: number[]): void {
    this.vectors?.delete(rowids);
  }

  async rank(filter: MemoryFilter, query: string, limit: number): Promise<Ranked<number>[]> {
    await this.settled();
    const n = CANDIDATES(limit);
    const qv = this.vectors ? await this.queryVector(this.focus(filter, query)) : null;
    const scores = this.firstStage(filter, query, qv, n);
    if (this.replyShare > 0) {
      const anchors = [...scores].sort((a, b) => b[1] - a[1]).slice(0, REPLY_ANCHORS(limit)).map(([id]) => id);
      addReplies(scores, this.replyContext.replies(filter, anchors), this.replyShare);
    }
    return ranking(scores).slice(0, limit);
  }

  /** Candidate scores: BM25 alone without a model, else RRF of vectors and keywords plus the graph boost. */
  private firstStage(filter: MemoryFilter, query: string, qv: Float32Array | null, n: number): Map<number, number> {
    // Cosines are not zero-based (unrelated texts still score ≈ 0.5), so reply shares need rank-based scores.
    if (this.vectorOnly) return rrfScores([this.vectorRanking(filter, qv, n).map((r) => r.id)], [1], HYBRID_RRF_K);
    const kw = this.keyword.rank(filter, query, n);
    if (!this.vectors || !qv) return new Map(kw.map((r) => [r.rowid, r.score]));
    const vec = this.vectors.rank(filter, qv, n);
    const scores = rrfScores([vec.map((r) => r.rowid), kw.map((r) => r.rowid)], HYBRID_WEIGHTS, HYBRID_RRF_K);
    if (this.graphBoost > 0) addBonus(scores, this.graph.mentions(filter, query), this.graphBoost / (HYBRID_RRF_K + 1));
    return scores;
  }

  /** The text to embed: the query without the words common to the user's memories (see query-focus.ts). */
  private focus(filter: MemoryFilter, query: string): string {
    let common = this.commonByUser.get(filter.userId);
    if (!common) this.commonByUser.set(filter.userId, (common = commonWords(recentTexts(this.db, filter.userId))));
    return withoutCommon(query, common);
  }

  /** A user's write changes their common words; the memory service calls this on every write. */
  forgetUser(userId: string): void {
    this.commonByUser.delete(userId);
  }

  private vectorRanking(filter: MemoryFilter, qv: Float32Array | null, n: number): Ranked<number>[] {
    return this.vectors && qv ? this.vectors.rank(filter, qv, n).map((r) => ({ id: r.rowid, score: r.score })) : [];
  }

  private async queryVector(query: string): Promise<Float32Array | null> {
    const key = query.trim().toLowerCase();
    if (this.queryVectors.has(key)) {
      this.queryCacheHits++;
      return this.queryVectors.get(key)!;
    }
    this.queryCacheMisses++;
    const [v] = (await this.embed([query])) ?? [null];
    this.queryVectors.set(key, v ?? null);
    return v ?? null;
  }

  /** Embeds, in batches, every memory without a vector of the current model (e.g. after a model change). */
  async reembedMissing(batch = 256): Promise<number> {
    await this.settled();
    if (!this.vectors) return 0;
    const model = this.vectors.modelId;
    const pendingSql = `SELECT count(*) AS n FROM memories m LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid AND e.model = ? WHERE e.memory_rowid IS NULL`;
    this.reembed.pending = this.db.query<{ n: number }, [string]>(pendingSql).get(model)!.n;
    if (this.reembed.pending) this.logger.info("re-embedding memories for the current model", { model, pending: this.reembed.pending });
    let total = 0;
    for (;;) {
      const rows = this.db
        .query<{ rowid: number; user_id: string; agent_id: string; session_id: string; expires_at: number | null; memory: string }, [string, number]>(
          `SELECT m.rowid, m.user_id, m.agent_id, m.session_id, m.expires_at, m.memory FROM memories m
           LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid AND e.model = ? WHERE e.memory_rowid IS NULL LIMIT ?`,
        )
        .all(model, batch);
      if (!rows.length) break;
      const vecs = (await this.embed(rows.map((r) => r.memory)))!;
      this.db.transaction(() =>
        this.writeVectors(rows.map((r, i) => ({ rowid: r.rowid, userId: r.user_id, agentId: r.agent_id, sessionId: r.session_id, expiresAt: r.expires_at, vector: vecs[i] ?? null }))),
      ).immediate();
      total += rows.length;
      this.reembed.done += rows.length;
      this.reembed.pending = Math.max(0, this.reembed.pending - rows.length);
      this.logger.info("re-embedding progress", { done: this.reembed.done, pending: this.reembed.pending });
    }
    return total;
  }
}
