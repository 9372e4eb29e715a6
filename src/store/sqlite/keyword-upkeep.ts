// Keeps the FTS5 keyword index in few segments. Each commit that indexes text writes a segment, and
// FTS5's own automerge leaves a store loaded by many commits with 8–16 of them; every term lookup
// searches each one (docs/ARCHITECTURE.md "Keyword index upkeep"). A group commit that indexed many memories
// in one flush merges a page for each of them before it commits; once text was indexed and the store then
// served nothing for a while, the server's connection merges the rest, a few pages per write transaction.
import type { Logger } from "~/shared/logger";
import type { Db } from "./connection";
import type { Turns } from "./turns";

export interface KeywordUpkeepOptions {
  /** How long the store must have served nothing (no read, write or search) before a merge starts or goes on. */
  quietMs: number;
  /** The index is left as it is with this many segments or fewer. */
  maxSegments: number;
  /** Pages one merge step writes at most (FTS5 'merge' N): at 100k memories 64 pages took 12 ms (max 37). */
  stepPages: number;
  /** Between steps: lets waiting writes have the connection (default: the next turn of the event loop; tests gate it). */
  pause?: () => Promise<void>;
}

export const KEYWORD_UPKEEP: KeywordUpkeepOptions = { quietMs: 1000, maxSegments: 3, stepPages: 32 };

/** FTS5 'usermerge': a merge takes segments of one level, and two of a level are enough to merge. */
const USERMERGE = 2;

/**
 * Pages a group commit merges for each memory it indexed (`batchIndexed`). FTS5's automerge works in proportion
 * to the leaf pages a flush writes, and a memory flushed on its own writes at least one; the group commit
 * flushes a batch's memories together (a page or two for 16), so FTS5 merged far less and a 100k load left
 * 9-26 segments where one flush per memory left 7. One page each (two a level) leaves 6-9; a quarter page
 * left 20-31; four pages cost adds ~40 % more server CPU for about the same as one.
 */
const PAGES_PER_BATCHED_ENTRY = 1;

/**
 * A group commit merges only while the index holds more segments than this (the round start's 100k loads left
 * 7). Two a level is nearly always something to merge, and the merges cascade to larger levels: merging at
 * every batch cost the bench's add run up to ~200 µs more server CPU an add while a cascade lasted. Beside an
 * index the idle-time run left in 2-3 segments, adds merge nothing until FTS5's own automerge (4 a level) lets
 * it grow past this. What it costs and saves: scripts/bench-keyword-merge.ts.
 */
const BATCH_MAX_SEGMENTS = 6;

/**
 * A run writes at most this many pages for each page of the segments beside the largest one (what was written
 * since the index was last merged into it). FTS5 picks which level merges next, and a cascade may reach the
 * largest segment after a few hundred adds: unbounded, the index was rewritten whole at every second or third
 * run (100k store, runs after 500-5,000 adds: 2.9 s in all); bounded, the rewrite goes on over later runs
 * (FTS5 keeps a merge it started) and the same runs took 1.6 s, leaving 2-4 segments.
 */
const PAGES_PER_GROWTH_PAGE = 2;

export class KeywordUpkeep {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastUsed = 0;
  /** Text was indexed since the last run began (or the store was just opened): a run may have work. */
  private grown = true;
  /** Merge steps the growth seen so far still allows (PAGES_PER_GROWTH_PAGE). */
  private budget = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  private stepsDone = 0;

  constructor(
    private readonly db: Db,
    private readonly turns: Turns,
    private readonly o: KeywordUpkeepOptions,
    private readonly logger: Logger,
    /** Told after each step's COMMIT (the store's own commits are not another process's). */
    private readonly committed: () => void,
  ) {
    // A store opened with many segments (loaded by an earlier run, or an older build) is merged once quiet too.
    this.arm(o.quietMs);
  }

  /** Text was indexed in a write of this connection. */
  indexed(): void {
    this.grown = true;
    this.used();
  }

  /**
   * A group commit's tail flushed the keyword entries of `entries` memories in one segment (group-commit.ts):
   * merges what FTS5's automerge would have merged had each been flushed on its own, in the batch's transaction.
   * FTS5 merges only levels that hold two segments or more, so a batch beside a merged index merges little.
   * A merge that fails is undone alone (its savepoint) and the batch commits: the writes matter, the merge can
   * wait for the next batch or the idle-time run. An error that ended the transaction fails the batch.
   */
  batchIndexed(entries: number): void {
    if (entries < 2 || this.segmentCount() <= BATCH_MAX_SEGMENTS) return;
    this.db.run("SAVEPOINT keyword_merge");
    try {
      this.setUsermerge();
      this.db.run("INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)", [
        entries * PAGES_PER_BATCHED_ENTRY,
      ]);
      this.db.run("RELEASE keyword_merge");
    } catch (e) {
      if (!this.db.inTransaction) throw e;
      this.db.run("ROLLBACK TO keyword_merge");
      this.db.run("RELEASE keyword_merge");
      this.logger.warn("keyword index merge skipped", { error: (e as Error).message });
    }
  }

  /**
   * The store serves something (a read, a write, a search ranked on a worker's connection): a merge under way
   * stops after its step, and the quiet wait starts again. A merge competes with requests for the server
   * thread; in an idle store it takes nobody's time.
   */
  used(): void {
    this.lastUsed = performance.now();
    if (this.pending() && !this.timer && !this.running) this.arm(this.o.quietMs);
  }

  /** Merge steps committed so far (diagnostics and tests). */
  get steps(): number {
    return this.stepsDone;
  }

  /** The keyword index's segments now (each term lookup searches every one). */
  segments(): Promise<number> {
    return this.turns.run(() => this.segmentCount());
  }

  /** Merges until FTS5 finds nothing left to merge, the budget is spent, a request comes or the store closes. */
  run(): Promise<void> {
    this.running ??= this.merge().finally(() => (this.running = null));
    return this.running;
  }

  /** Stops: no step starts after this, and the one under way (if any) has committed when it resolves. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private arm(ms: number): void {
    if (this.closed || !Number.isFinite(ms)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const idle = performance.now() - this.lastUsed;
      if (idle < this.o.quietMs) this.arm(this.o.quietMs - idle);
      // Left for the next quiet time (another process may have held the write lock beyond busy_timeout).
      else this.run().catch((e) => this.logger.warn("keyword index merge stopped", { error: (e as Error).message }));
    }, ms);
    // A CLI command that opened the store ends when its work does, not a second later.
    this.timer.unref?.();
  }

  private async merge(): Promise<void> {
    const start = performance.now();
    try {
      const pages = await this.turns.run(() => this.segmentPages());
      if (this.closed) return;
      if (pages.length <= this.o.maxSegments) {
        [this.grown, this.budget] = [false, 0];
        return;
      }
      // Text indexed since the last run sets the budget; a run that requests stopped goes on with what it left.
      if (this.grown) {
        const growth = pages.reduce((a, b) => a + b, 0) - Math.max(...pages);
        [this.grown, this.budget] = [false, Math.ceil((PAGES_PER_GROWTH_PAGE * growth) / this.o.stepPages)];
      }
      while (this.budget > 0 && !this.closed && this.lastUsed <= start) {
        this.budget--;
        if (!(await this.turns.run(() => this.step()))) this.budget = 0;
        else await (this.o.pause ?? nextTurn)();
      }
    } finally {
      // Stopped by a request, or text indexed meanwhile: goes on once the store is quiet again.
      if (this.lastUsed > start && this.pending()) this.arm(this.o.quietMs);
    }
  }

  private pending(): boolean {
    return this.grown || this.budget > 0;
  }

  /** One write transaction of at most stepPages merged pages; false when FTS5 found nothing to merge. */
  private step(): boolean {
    if (this.closed) return false;
    this.db.run("BEGIN IMMEDIATE");
    try {
      this.setUsermerge();
      const before = this.totalChanges();
      this.db.run("INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)", [this.o.stepPages]);
      // FTS5's documented test: fewer than 2 changes means the command merged nothing.
      const merged = this.totalChanges() - before >= 2;
      this.db.run("COMMIT");
      this.committed();
      this.stepsDone++;
      return merged;
    } catch (e) {
      if (this.db.inTransaction) this.db.run("ROLLBACK");
      throw e;
    }
  }

  /**
   * The index's segments, from FTS5's structure record (`_data` row 10): a 4-byte cookie, in the current format
   * a 4-byte version marker, then the number of levels and of segments as varints. One row read, where counting
   * them in `_idx` (segmentPages()) reads every term page's entry.
   */
  private segmentCount(): number {
    const block = this.db
      .query<{ block: Uint8Array }, []>("SELECT block FROM memories_fts_data WHERE id = 10")
      .get()?.block;
    if (!block) return 0;
    let at = block[4] === 0xff && block[5] === 0 && block[6] === 0 && block[7] === 1 ? 8 : 4;
    const varint = () => {
      let value = 0;
      while (block[at]! & 0x80) value = value * 128 + (block[at++]! & 0x7f);
      return value * 128 + block[at++]!;
    };
    varint(); // levels
    return varint();
  }

  /** In the caller's write transaction. */
  private setUsermerge(): void {
    const usermerge = this.db
      .query<{ v: number }, []>("SELECT v FROM memories_fts_config WHERE k = 'usermerge'")
      .get()?.v;
    if (usermerge !== USERMERGE)
      this.db.run("INSERT INTO memories_fts (memories_fts, rank) VALUES ('usermerge', ?)", [USERMERGE]);
  }

  private totalChanges(): number {
    return this.db.query<{ n: number }, []>("SELECT total_changes() AS n").get()!.n;
  }

  /** Each segment's leaf pages, about: FTS5 keeps a row in `_idx` for each leaf page a term starts on. */
  private segmentPages(): number[] {
    return this.db
      .query<[number], []>("SELECT count(*) FROM memories_fts_idx GROUP BY segid")
      .values()
      .map((r) => r[0] as number);
  }
}

const nextTurn = () => new Promise<void>((go) => setImmediate(go));
