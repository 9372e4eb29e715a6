// Search: keyword (FTS5 BM25) always; semantic (sqlite-vec) when an embedder is ready; hybrid =
// RRF of both. Also owns vector writes and the background re-embedding after a model change.
import type { Db } from "~/store/sqlite";
import type { Logger } from "~/shared/logger";
import type { Embedder } from "./embedder";
import { KeywordIndex } from "./keyword-index";
import { VectorIndex, type VectorRow } from "./vector-index";
import type { MemoryFilter } from "./memory-filter";
import { rrf, normaliseScores, type Ranked } from "./fusion";
import { LruCache } from "./lru-cache";

export type SearchMode = "hybrid" | "keyword";
export type SemanticState = "off" | "loading" | "ready" | "failed";

/** How many candidates each ranking contributes before fusion. */
const CANDIDATES = (limit: number) => Math.max(50, limit * 5);

export interface SearchStatus {
  mode: SearchMode;
  model: string | null;
  semantic: SemanticState;
  error?: string;
  reembed: { pending: number; done: number };
}

export class SearchService {
  private readonly keyword: KeywordIndex;
  private vectors: VectorIndex | null = null;
  private state: SemanticState;
  private error?: string;
  private readonly queryVectors = new LruCache<string, Float32Array | null>(2000);
  private reembed = { pending: 0, done: 0 };
  queryCacheHits = 0;
  queryCacheMisses = 0;

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder | null,
    private readonly logger: Logger,
  ) {
    this.keyword = new KeywordIndex(db);
    this.state = embedder ? "loading" : "off";
  }

  /** Loads the model; on failure search stays keyword-only and health reports degraded. */
  async start(): Promise<void> {
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

  status(): SearchStatus {
    return {
      mode: this.state === "ready" ? "hybrid" : "keyword",
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
    const n = CANDIDATES(limit);
    const kw = this.keyword.rank(filter, query, n);
    const qv = this.vectors ? await this.queryVector(query) : null;
    if (!this.vectors || !qv) {
      return normaliseScores(kw.map((r) => ({ id: r.rowid, score: r.score }))).slice(0, limit);
    }
    const vec = this.vectors.rank(filter, qv, n);
    return rrf([vec.map((r) => r.rowid), kw.map((r) => r.rowid)]).slice(0, limit);
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
