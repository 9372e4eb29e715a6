// Search: keyword evidence always; semantic (vectors) when an embedder is ready; one calibrated score
// from both (relevance.ts); then replies to ranked questions join in. Also owns vector writes and the
// background re-embedding after a model change.
import type { MemoryFilter, Owner, Repos, Store, VectorErasures, VectorRow, VectorSpace } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import { ownerKey } from "~/shared/principal";
import type { Logger } from "~/shared/logger";
import { Histogram } from "~/shared/histogram";
import type { Embedder } from "./embedder";
import { LruCache } from "./lru-cache";
import { commonWords, FOCUS_SAMPLE, refreshAfter, withoutCommon } from "./query-focus";
import { REPLY_SHARE } from "./reply-context";
import { Ranker, type RankRequest, type SearchHit } from "./ranker";
import { queryTerms } from "./query-terms";
import { mayBeTypo } from "./typos";
import type { RankPool } from "./rank-pool";
import type { DownloadStatus } from "./model-switch";

export type SearchMode = "hybrid" | "keyword";
export type SemanticState = "off" | "loading" | "ready" | "failed";

/** Tuning for measurements (scripts/eval-locomo.ts); the server and the API never set it. */
export interface SearchTuning {
  /** Rank by vectors alone ("semantic only"). */
  vectorOnly?: boolean;
  /** Probability that a ranked question's reply answers it (default REPLY_SHARE; 0 = off). */
  replyShare?: number;
}

/**
 * Real words (lower case, no diacritics), for typo tolerance: a query word that is one is never taken for
 * a typo (typos.ts). Null (none given, or not loaded) tries every word of four letters or more.
 */
export type KnownWords = () => Promise<ReadonlySet<string> | null>;

export interface SearchStatus {
  mode: SearchMode;
  model: string | null;
  semantic: SemanticState;
  error?: string;
  reembed: { pending: number; done: number };
  /** Which vector index serves the semantic search (SPEC §10). */
  vectorIndex: string;
  /** The configured model's background download, when it was not in the models folder (model-switch.ts). */
  download?: DownloadStatus;
}

/** Vectors of some texts, and the model's space they belong in. */
export interface Embedded {
  space: VectorSpace;
  vectors: (Float32Array | null)[];
}

export class SearchService {
  private readonly ranker: Ranker;
  readonly erasure: VectorErasures;
  /** Search workers (rank-pool.ts), when the server runs them: ranking happens there instead of on this thread. */
  private pool: RankPool | null = null;
  private vectors: VectorSpace | null = null;
  private state: SemanticState;
  private error?: string;
  private readonly queryVectors = new LruCache<string, Float32Array | null>(2000);
  /** Per user: the common words, the size of the sample they came from, and the writes since. */
  private readonly commonByUser = new LruCache<string, { words: Set<string>; sample: number; writes: number }>(10_000);
  private commonSeenExternal = -1;
  private reembed = { pending: 0, done: 0 };
  private download: DownloadStatus | null = null;
  /** The re-embedding pass under way, and whether another must follow it (writes with a replaced model). */
  private reembedding: Promise<number> | null = null;
  private reembedAgain = false;
  /** Durations for /metrics: a search's ranking (query embedding included; cache hits never get here), and each embedding call. */
  readonly timings = { search: new Histogram(), embed: { query: new Histogram(), store: new Histogram() } };
  queryCacheHits = 0;
  queryCacheMisses = 0;

  private known: ReadonlySet<string> | null = null;
  private knownLoading: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private embedder: Embedder | null,
    private readonly logger: Logger,
    private readonly tuning: SearchTuning = {},
    private readonly knownWords?: KnownWords,
  ) {
    this.ranker = new Ranker(store);
    this.erasure = store.vectorErasures;
    this.state = embedder ? "loading" : "off";
  }

  /**
   * Reads the word list once, at the first search or once the model has loaded, whichever comes first
   * (not at construction: parsing it takes ~60 ms of this thread, which held up a new server's first
   * answer). A search waits for it either way, so none ever runs without it.
   */
  private knownWordsRead(): Promise<void> {
    return (this.knownLoading ??= (this.knownWords?.() ?? Promise.resolve(null)).then(
      (words) => void (this.known = words),
      (e: Error) =>
        this.logger.warn("no word list for typo tolerance; every unknown word is tried", { error: e.message }),
    ));
  }

  private starting: Promise<void> | null = null;

  /**
   * Loads the model (idempotent); on failure search stays keyword-only and health reports degraded.
   * The server listens meanwhile: writes and searches wait for the load instead of silently
   * skipping vectors, and /health says `loading`.
   */
  start(): Promise<void> {
    return (this.starting ??= this.load().then(() => void this.knownWordsRead()));
  }

  private async load(): Promise<void> {
    if (!this.embedder) return;
    try {
      await this.embedder.ready();
      const { modelId, dimensions } = this.embedder;
      this.vectors = await this.store.write((tx) => tx.vectors.open(modelId, dimensions), EVERY_ROW);
      this.state = "ready";
    } catch (e) {
      this.state = "failed";
      this.error = (e as Error).message;
      this.logger.error("embedding model failed to load; search is keyword-only", {
        model: this.embedder.modelId,
        error: this.error,
      });
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
      vectorIndex: this.store.vectorIndex,
      ...(this.download ? { download: { ...this.download } } : {}),
    };
  }

  /** The background download's latest status (model-switch.ts). */
  noteDownload(status: DownloadStatus): void {
    this.download = status;
  }

  /**
   * Loads `next` and makes it the model of every later embedding and search; memories without its vectors
   * are found by keyword until the re-embedding that follows (in the background) reaches them.
   */
  async switchTo(next: Embedder): Promise<void> {
    await this.settled();
    await next.ready();
    const space = await this.store.write((tx) => tx.vectors.open(next.modelId, next.dimensions), EVERY_ROW);
    const previous = this.embedder;
    [this.embedder, this.vectors, this.state, this.error] = [next, space, "ready", undefined];
    this.queryVectors.clear();
    this.reembed = { pending: 0, done: 0 };
    void this.reembedMissing().catch((e) => this.logger.error("re-embedding failed", { error: (e as Error).message }));
    // Embeddings already under way with the previous model finish on it: it is closed with the engine.
    if (previous) this.retired.push(previous);
  }

  /** Models replaced by switchTo, closed with the engine. */
  readonly retired: Embedder[] = [];

  get modelId(): string | null {
    return this.state === "ready" ? this.embedder!.modelId : null;
  }

  /** Embeds texts for storage; null when semantic search is not available. */
  async embed(texts: string[], kind: "query" | "store" = "store"): Promise<Embedded | null> {
    await this.settled();
    const [embedder, space] = [this.embedder, this.vectors];
    if (this.state !== "ready" || !texts.length || !embedder || !space) return null;
    return { space, vectors: await this.timings.embed[kind].time(() => embedder.embed(texts)) };
  }

  /**
   * Call inside the write transaction that stores the memories, with the space `embed` answered. Vectors of
   * a model replaced meanwhile go to that model's space (unused now, harmless); call `written` after the
   * commit so those memories are re-embedded.
   */
  async writeVectors(tx: Repos, space: VectorSpace, rows: VectorRow[]): Promise<void> {
    await tx.vectors.upsert(space, rows);
  }

  /** After the commit of memories stored with `embedded`: when its model was replaced meanwhile, they are re-embedded. */
  written(embedded: Embedded | null): void {
    if (!embedded || embedded.space === this.vectors) return;
    void this.reembedMissing().catch((e) => this.logger.error("re-embedding failed", { error: (e as Error).message }));
  }

  /** Call inside the write transaction that deletes the memories (the store may finish after the commit). */
  deleteVectors(tx: Repos, rowids: number[]): Promise<void> {
    return tx.vectors.erase(rowids);
  }

  /** Search worker threads running now. */
  get workers(): number {
    return this.pool?.size ?? 0;
  }

  /** Hands ranking to search workers; `close()` of the pool stays with whoever opened it. */
  useWorkers(pool: RankPool | null): void {
    this.pool = pool;
  }

  async rank(filter: MemoryFilter, query: string, limit: number): Promise<SearchHit[]> {
    // Ranking runs on a worker's connection: the store would not see this search otherwise.
    this.store.serving();
    await Promise.all([this.settled(), this.knownWordsRead()]);
    return this.timings.search.time(() => this.rankNow(filter, query, limit));
  }

  private async rankNow(filter: MemoryFilter, query: string, limit: number): Promise<SearchHit[]> {
    const vector = this.vectors ? await this.queryVector(await this.focus(filter, query)) : null;
    const known = this.known;
    const req: RankRequest = {
      filter,
      query,
      terms: queryTerms(query).map((word) => ({ word, typo: mayBeTypo(word, (w) => known?.has(w) ?? false) })),
      vector,
      limit,
      vectors: this.vectors,
      vectorOnly: this.tuning.vectorOnly ?? false,
      replyShare: this.tuning.replyShare ?? REPLY_SHARE,
    };
    // Without a running worker (none configured, all being replaced) it ranks here: same code.
    return this.pool?.size ? this.pool.rank(req) : this.ranker.rank(req);
  }

  /** The text to embed: the query without the words common to the user's memories (see query-focus.ts). */
  private async focus(filter: MemoryFilter, query: string): Promise<string> {
    // Another process (node) changed the store: its writes are not counted here, so read every user again.
    const external = this.store.externalVersion();
    if (external !== this.commonSeenExternal) {
      this.commonSeenExternal = external;
      this.commonByUser.clear();
    }
    let common = this.commonByUser.get(ownerKey(filter));
    if (!common || common.writes >= refreshAfter(common.sample)) {
      const sample = await this.store.read((r) => r.memories.recentTexts(filter, FOCUS_SAMPLE), {
        org: filter.org,
        user: filter.userId,
      });
      this.commonByUser.set(
        ownerKey(filter),
        (common = { words: commonWords(sample), sample: sample.length, writes: 0 }),
      );
    }
    return withoutCommon(query, common.words);
  }

  /** `count` memories of the user were written or deleted: their common words are read again after a tenth of their sample. */
  noteWrites(owner: Owner, count: number): void {
    const common = this.commonByUser.get(ownerKey(owner));
    if (common) common.writes += count;
  }

  /** All the user's memories went (delete_all): their common words are read again at the next search. */
  forgetUser(owner: Owner): void {
    this.commonByUser.delete(ownerKey(owner));
  }

  private async queryVector(query: string): Promise<Float32Array | null> {
    const key = query.trim().toLowerCase();
    if (this.queryVectors.has(key)) {
      this.queryCacheHits++;
      return this.queryVectors.get(key)!;
    }
    this.queryCacheMisses++;
    const [v] = (await this.embed([query], "query"))?.vectors ?? [null];
    this.queryVectors.set(key, v ?? null);
    return v ?? null;
  }

  /**
   * Embeds, in batches, every memory without a vector of the current model (e.g. after a model change).
   * One pass at a time: a call during a pass runs another after it (it may have missed that call's memories).
   */
  reembedMissing(batch = 256): Promise<number> {
    if (this.reembedding) {
      this.reembedAgain = true;
      return this.reembedding;
    }
    const pass = async (): Promise<number> => {
      let total = 0;
      do {
        this.reembedAgain = false;
        total += await this.reembedPass(batch);
      } while (this.reembedAgain);
      return total;
    };
    return (this.reembedding = pass().finally(() => (this.reembedding = null)));
  }

  private async reembedPass(batch: number): Promise<number> {
    await this.settled();
    if (!this.vectors) return 0;
    const space = this.vectors;
    const model = space.model;
    // A memory has at most one mark (memory_rowid is the key) and marks go with their memory (foreign
    // key), so the difference of two counts is the number without a vector of this model: 150 ms at
    // 1M memories, where the anti-join held the server thread for 2 s at every start.
    const { memories, marked } = await this.store.read(
      async (r) => ({
        memories: await r.memories.total(),
        marked: await r.vectors.embeddedCount(model),
      }),
      EVERY_ROW,
    );
    this.reembed.pending = Math.max(0, memories - marked);
    if (!this.reembed.pending) return 0;
    this.logger.info("re-embedding memories for the current model", { model, pending: this.reembed.pending });
    let total = 0;
    for (;;) {
      const rows = await this.store.read((r) => r.vectors.unembedded(model, batch), EVERY_ROW);
      if (!rows.length) break;
      const embedded = await this.embed(rows.map((r) => r.memory));
      // The model was replaced during this batch: the pass for the new one follows.
      if (embedded?.space !== space) break;
      const vecs = embedded.vectors;
      await this.store.write(
        (tx) =>
          tx.vectors.upsert(
            space,
            rows.map((r, i) => ({
              rowid: r.rowid,
              org: r.org_id,
              userId: r.user_id,
              agentId: r.agent_id,
              sessionId: r.session_id,
              expiresAt: r.expires_at,
              vector: vecs[i] ?? null,
            })),
          ),
        EVERY_ROW,
      );
      total += rows.length;
      this.reembed.done += rows.length;
      this.reembed.pending = Math.max(0, this.reembed.pending - rows.length);
      this.logger.info("re-embedding progress", { done: this.reembed.done, pending: this.reembed.pending });
    }
    return total;
  }
}
