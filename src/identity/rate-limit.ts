// Rate limits (SPEC §8): at most N hits per window for each bucket (a key, a token subject, a client
// address), counted in the store so every process serving it shares one count. A sliding window
// estimated from two fixed ones: the previous window's hits weighted by how much of it still overlaps.

import type { Repos, Store, WindowCounts } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import type { Rate } from "~/shared/rate";
import type { MaybePromise } from "~/shared/maybe-async";
import type { DeferredBatch, DeferredWrites } from "~/shared/deferred-writes";

export type Verdict = { ok: true } | { ok: false; retryAfter: number };
const ALLOWED: Verdict = Object.freeze({ ok: true });

/**
 * Seconds until a next hit would be allowed, when `current` hits (this one included) are counted
 * in the window that began `elapsed` ms ago and `previous` in the one before: first within this
 * window, as the previous window's weight fades; else into the next, as this one's does.
 */
export function retryAfterSeconds(rate: Rate, current: number, previous: number, elapsed: number): number {
  const { limit, windowMs: w } = rate;
  let wait: number;
  if (previous > 0 && current + 1 <= limit) wait = Math.max(0, w * (1 - (limit - current - 1) / previous) - elapsed);
  else wait = Number.POSITIVE_INFINITY;
  if (wait >= w - elapsed) wait = w - elapsed + (current === 0 ? 0 : Math.max(0, w * (1 - (limit - 1) / current)));
  // Whole milliseconds first: 60000 × (1 − 1/3) is 40000.000000000004, not a second more.
  return Math.max(1, Math.ceil(Math.round(wait) / 1000));
}

/** Hits of a window as seen now: this window's, plus the previous one's weighted by its remaining overlap. */
const estimate = (current: number, previous: number, elapsed: number, w: number) =>
  previous * (1 - elapsed / w) + current;

/** How long a bucket's counts read from the store stand in for it, while it is far below its limit. */
const FRESH_MS = 1000;

/** What this process knows of a bucket: the store's counts when last read, and its own hits since. */
interface View extends WindowCounts {
  start: number;
  at: number;
  /** Hits of the window `start` counted here and not yet written. */
  pending: number;
  /** Hits of the window before `start` counted here and not yet written (its view was carried into this window). */
  carried: number;
}

/**
 * Far below its limit (under half of it, on counts at most FRESH_MS old) a bucket's hits are counted
 * here and written in batches; near it, every hit goes through the store, so processes sharing a store
 * agree where it matters. A request then costs no store write unless its bucket is busy: a bucket this
 * process already counts is brought up to date (every FRESH_MS, and into each next window) by a read.
 * Writes are kept few because each commit makes every other connection to the store file — the search
 * workers' — drop its page cache and memory map at its next read: a write per key and second took a
 * fifth of the search throughput of a server with a key per user. Hits counted here are written in the
 * shared periodic commit (shared/deferred-writes.ts), all buckets with the audit log's rows; a bucket
 * near its limit writes each hit at once.
 */
export class RateLimiter {
  /** The window this process last pruned before (or asked the shared commit to); old windows go once per window. */
  private pruned = 0;
  /** Windows that started before this are to be pruned in the next shared commit (null: none). */
  private pruneBefore: number | null = null;
  private readonly views = new Map<string, View>();

  /**
   * `prefix` names the limit's buckets in the store (e.g. "rate:", "authfail:"); it ends with ":".
   * `writes`: the shared periodic commit that writes the hits counted here.
   */
  constructor(
    private readonly store: Store,
    readonly rate: Rate,
    private readonly prefix: string,
    private readonly writes: DeferredWrites<Repos>,
    private readonly now: () => number = Date.now,
  ) {
    writes.add(() => this.unwritten());
  }

  /**
   * Counts a hit of `bucket`; refused when it takes the bucket over its limit (refused hits count too).
   * At once while the bucket is far below its limit, else after asking the store.
   */
  take(bucket: string): MaybePromise<Verdict> {
    return this.local(bucket, true) ?? this.run(bucket, true);
  }

  /** Whether a hit of `bucket` would be allowed now, counting nothing. */
  check(bucket: string): MaybePromise<Verdict> {
    return this.local(bucket, false) ?? this.run(bucket, false);
  }

  /** Writes the hits counted here to the store (with the rest of the shared commit). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** The hits counted here since the last commit, every bucket, as its part of the shared one. */
  private unwritten(): DeferredBatch<Repos> | null {
    const owed = [...this.views.entries()]
      .filter(([, v]) => v.pending > 0 || v.carried > 0)
      .map(([key, v]) => ({ key, v, n: v.pending, carried: v.carried }));
    const prune = this.pruneBefore;
    if (owed.length === 0 && prune === null) return null;
    this.pruneBefore = null;
    for (const o of owed) (o.v.pending -= o.n), (o.v.carried -= o.carried);
    const w = this.rate.windowMs;
    let counts: (WindowCounts | null)[] = [];
    return {
      write: async (r) => {
        counts = []; // a retried transaction writes again from the start
        if (prune !== null) await r.rateLimits.prune(this.prefix, prune);
        for (const o of owed) {
          if (o.carried > 0) await r.rateLimits.hit(o.key, o.v.start - w, w, o.carried);
          counts.push(o.n > 0 ? await r.rateLimits.hit(o.key, o.v.start, w, o.n) : null);
        }
      },
      committed: () => this.committedCounts(owed, counts),
      // Lost, as counts of a store closed meanwhile are: the limit errs on the side of the client.
      failed: () => {},
    };
  }

  /** Each written bucket's view takes the store's counts; buckets idle for two windows are forgotten. */
  private committedCounts(owed: { key: string; v: View }[], counts: (WindowCounts | null)[]): void {
    const now = this.now();
    const w = this.rate.windowMs;
    owed.forEach((o, i) => counts[i] && this.views.get(o.key) === o.v && Object.assign(o.v, counts[i], { at: now }));
    for (const [key, v] of this.views)
      if (v.pending === 0 && v.carried === 0 && now - v.start >= 2 * w) this.views.delete(key);
  }

  /** The verdict from this process's view of the bucket when it is fresh and far below the limit, else null. */
  private local(bucket: string, counting: boolean): Verdict | null {
    const now = this.now();
    const w = this.rate.windowMs;
    const start = now - (now % w);
    const v = this.views.get(this.prefix + bucket);
    if (!v || v.start !== start || now - v.at >= FRESH_MS) return null;
    return this.farBelow(v, now, counting);
  }

  /** ALLOWED (the hit counted here, when counting) if `v` puts the bucket far below its limit; else null. */
  private farBelow(v: View, now: number, counting: boolean): Verdict | null {
    const w = this.rate.windowMs;
    if (estimate(v.current + v.pending + 1, v.previous + v.carried, now - v.start, w) > this.rate.limit / 2)
      return null;
    if (counting) v.pending++, this.writes.soon();
    return ALLOWED;
  }

  private async run(bucket: string, counting: boolean): Promise<Verdict> {
    const now = this.now();
    const w = this.rate.windowMs;
    const start = now - (now % w);
    const key = this.prefix + bucket;
    const known = this.views.get(key);
    // A bucket counted here before, in this window or the last, is read again; far below its limit its
    // hit is then counted here too (the first of a window asks the shared commit to prune the old ones). A
    // bucket new to this process writes.
    if (known && known.start >= start - w && known.carried === 0) {
      if (this.pruned < start) (this.pruned = start), (this.pruneBefore = start - w), this.writes.soon();
      const verdict = this.farBelow(await this.refresh(key, start, now), now, counting);
      if (verdict) return verdict;
    }
    const { current, previous } = await this.sync(key, start, counting, now);
    const elapsed = now - start;
    const seen = counting ? current : current + 1;
    if (estimate(seen, previous, elapsed, w) <= this.rate.limit) return ALLOWED;
    return { ok: false, retryAfter: retryAfterSeconds(this.rate, current, previous, elapsed) };
  }

  /** The bucket's view with the store's counts read now, keeping the hits counted here and not yet written. */
  private async refresh(key: string, start: number, now: number): Promise<View> {
    const counts = await this.store.read((r) => r.rateLimits.peek(key, start, this.rate.windowMs), EVERY_ROW);
    const latest = this.views.get(key);
    if (latest && latest.start > start) return latest;
    const v: View = { ...counts, start, at: now, ...this.owedInto(latest, start) };
    this.views.set(key, v);
    return v;
  }

  /** The hits of `v` not yet written, as the view of the window `start` keeps them (the last window's carried). */
  private owedInto(v: View | undefined, start: number): Pick<View, "pending" | "carried"> {
    if (v?.start === start) return { pending: v.pending, carried: v.carried };
    return { pending: 0, carried: v?.start === start - this.rate.windowMs ? v.pending : 0 };
  }

  /** The bucket's counts in the store, after writing its hits counted here (and this one, when counting). */
  private async sync(key: string, start: number, counting: boolean, now: number): Promise<WindowCounts> {
    const w = this.rate.windowMs;
    const v = this.views.get(key);
    const owed: [number, number][] = v
      ? [
          [v.start - w, v.carried],
          [v.start, v.pending],
        ]
      : [];
    if (v) (v.pending = 0), (v.carried = 0);
    const prune = this.pruned < start;
    this.pruned = start;
    const here = owed.reduce((n, [at, hits]) => n + (at === start ? hits : 0), counting ? 1 : 0);
    const earlier = owed.filter(([at, hits]) => at !== start && hits > 0);
    const body = async (r: Repos) => {
      if (prune) await r.rateLimits.prune(this.prefix, start - w);
      for (const [at, hits] of earlier) await r.rateLimits.hit(key, at, w, hits);
      return here > 0 ? r.rateLimits.hit(key, start, w, here) : r.rateLimits.peek(key, start, w);
    };
    const counts =
      here > 0 || prune || earlier.length
        ? await this.store.group(body, EVERY_ROW)
        : await this.store.read(body, EVERY_ROW);
    // Hits counted here meanwhile stay owed.
    this.views.set(key, { ...counts, start, at: now, ...this.owedInto(this.views.get(key), start) });
    return counts;
  }
}
