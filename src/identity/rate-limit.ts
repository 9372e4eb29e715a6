// Rate limits (SPEC §8): at most N hits per window for each bucket (a key, a token subject, a client
// address), counted in the store so every process serving it shares one count. A sliding window
// estimated from two fixed ones: the previous window's hits weighted by how much of it still overlaps.

import type { Repos, Store, WindowCounts } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import type { Rate } from "~/shared/rate";
import type { MaybePromise } from "~/shared/maybe-async";

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
/** Hits counted locally are written to the store this often, all buckets in one transaction. */
const FLUSH_MS = 100;

/** What this process knows of a bucket: the store's counts when last read, and its own hits since. */
interface View extends WindowCounts {
  start: number;
  at: number;
  pending: number;
}

/**
 * Far below its limit (under half of it, on counts at most FRESH_MS old) a bucket's hits are counted
 * here and written in batches; near it, every hit goes through the store, so processes sharing a store
 * agree where it matters. A request then costs no store write unless its bucket is busy.
 */
export class RateLimiter {
  /** The window this process last pruned before; old windows go once per window. */
  private pruned = 0;
  private readonly views = new Map<string, View>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `prefix` names the limit's buckets in the store (e.g. "rate:", "authfail:"); it ends with ":". */
  constructor(
    private readonly store: Store,
    readonly rate: Rate,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

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

  /** Writes the hits counted here to the store, every bucket in one transaction. */
  async flush(): Promise<void> {
    const owed = [...this.views.entries()]
      .filter(([, v]) => v.pending > 0)
      .map(([key, v]) => ({ key, v, n: v.pending }));
    if (owed.length === 0) return;
    for (const o of owed) o.v.pending -= o.n;
    const w = this.rate.windowMs;
    const counts = await this.store.group(async (r) => {
      const out: WindowCounts[] = [];
      for (const o of owed) out.push(await r.rateLimits.hit(o.key, o.v.start, w, o.n));
      return out;
    }, EVERY_ROW);
    const now = this.now();
    owed.forEach((o, i) => this.views.get(o.key) === o.v && Object.assign(o.v, counts[i], { at: now }));
    for (const [key, v] of this.views) if (v.pending === 0 && now - v.start >= 2 * w) this.views.delete(key);
  }

  /** The verdict from this process's view of the bucket when it is fresh and far below the limit, else null. */
  private local(bucket: string, counting: boolean): Verdict | null {
    const now = this.now();
    const w = this.rate.windowMs;
    const start = now - (now % w);
    const v = this.views.get(this.prefix + bucket);
    if (!v || v.start !== start || now - v.at >= FRESH_MS) return null;
    if (estimate(v.current + v.pending + 1, v.previous, now - start, w) > this.rate.limit / 2) return null;
    if (counting) v.pending++, this.scheduleFlush();
    return ALLOWED;
  }

  private async run(bucket: string, counting: boolean): Promise<Verdict> {
    const now = this.now();
    const w = this.rate.windowMs;
    const start = now - (now % w);
    const key = this.prefix + bucket;
    const { current, previous } = await this.sync(key, start, counting, now);
    const elapsed = now - start;
    const seen = counting ? current : current + 1;
    if (estimate(seen, previous, elapsed, w) <= this.rate.limit) return ALLOWED;
    return { ok: false, retryAfter: retryAfterSeconds(this.rate, current, previous, elapsed) };
  }

  /** The bucket's counts in the store, after writing its hits counted here (and this one, when counting). */
  private async sync(key: string, start: number, counting: boolean, now: number): Promise<WindowCounts> {
    const w = this.rate.windowMs;
    const v = this.views.get(key);
    const owed = v?.pending ?? 0;
    const owedStart = v?.start ?? start;
    if (v) v.pending = 0;
    const prune = this.pruned < start;
    this.pruned = start;
    const here = (owedStart === start ? owed : 0) + (counting ? 1 : 0);
    const body = async (r: Repos) => {
      if (prune) await r.rateLimits.prune(this.prefix, start - w);
      if (owed > 0 && owedStart !== start) await r.rateLimits.hit(key, owedStart, w, owed);
      return here > 0 ? r.rateLimits.hit(key, start, w, here) : r.rateLimits.peek(key, start, w);
    };
    const counts =
      here > 0 || prune || owed > 0 ? await this.store.group(body, EVERY_ROW) : await this.store.read(body, EVERY_ROW);
    this.views.set(key, { ...counts, start, at: now, pending: this.views.get(key)?.pending ?? 0 });
    return counts;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A store closed meanwhile (the server stopping) loses at most FLUSH_MS of counts.
      this.flush().catch(() => {});
    }, FLUSH_MS);
    this.timer.unref?.();
  }
}
