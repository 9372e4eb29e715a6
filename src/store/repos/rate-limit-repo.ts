// Request counters of the rate limits (SPEC §8): hits per bucket (a key, a token subject, a client
// address) per fixed window, in the store so every process serving it counts against the same limit.

export interface WindowCounts {
  /** Hits in the current window, this one included. */
  current: number;
  /** Hits in the window just before it (0 when none were counted). */
  previous: number;
}

export interface RateLimitRepo {
  /** Counts `count` hits (default 1) in `bucket`'s window starting at `windowStart` (ms); answers both windows' counts. */
  hit(bucket: string, windowStart: number, windowMs: number, count?: number): Promise<WindowCounts>;
  /** Both windows' counts, counting nothing. */
  peek(bucket: string, windowStart: number, windowMs: number): Promise<WindowCounts>;
  /** Drops the windows of the buckets starting with `prefix` that started before `before` (ms); answers how many. */
  prune(prefix: string, before: number): Promise<number>;
}

/** The first string after every string starting with `prefix` (buckets compare bytewise on both engines). */
export const prefixEnd = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
