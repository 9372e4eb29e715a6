// Rate limits (SPEC §8): at most N hits per window for each bucket (a key, a token subject, a client
// address), counted in the store so every process serving it shares one count. A sliding window
// estimated from two fixed ones: the previous window's hits weighted by how much of it still overlaps.

import type { Repos, Store } from "~/store/store";
import type { Rate } from "~/shared/rate";

export type Verdict = { ok: true } | { ok: false; retryAfter: number };

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

export class RateLimiter {
  /** The window this process last pruned before; old windows go once per window. */
  private pruned = 0;

  /** `prefix` names the limit's buckets in the store (e.g. "rate:", "authfail:"); it ends with ":". */
  constructor(
    private readonly store: Store,
    readonly rate: Rate,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit of `bucket`; refused when it takes the bucket over its limit (refused hits count too). */
  take(bucket: string): Promise<Verdict> {
    return this.run(bucket, true);
  }

  /** Whether a hit of `bucket` would be allowed now, counting nothing. */
  check(bucket: string): Promise<Verdict> {
    return this.run(bucket, false);
  }

  private async run(bucket: string, counting: boolean): Promise<Verdict> {
    const now = this.now();
    const w = this.rate.windowMs;
    const start = now - (now % w);
    const key = this.prefix + bucket;
    const prune = this.pruned < start;
    this.pruned = start;
    const body = async (r: Repos) => {
      if (prune) await r.rateLimits.prune(this.prefix, start - w);
      return counting ? r.rateLimits.hit(key, start, w) : r.rateLimits.peek(key, start, w);
    };
    const { current, previous } = counting || prune ? await this.store.group(body) : await this.store.read(body);
    const elapsed = now - start;
    const seen = counting ? current : current + 1;
    if (estimate(seen, previous, elapsed, w) <= this.rate.limit) return { ok: true };
    return { ok: false, retryAfter: retryAfterSeconds(this.rate, current, previous, elapsed) };
  }
}
