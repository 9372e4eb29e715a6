// Rate-limit counters in SQLite (store/repos/rate-limit-repo.ts): one row per bucket and window; the
// upsert runs inside the store's write transaction, so processes sharing the file never lose a hit.
import type { Db } from "./connection";
import { prefixEnd, type RateLimitRepo, type WindowCounts } from "../repos/rate-limit-repo";

export class SqliteRateLimitRepo implements RateLimitRepo {
  constructor(private readonly db: Db) {}

  async hit(bucket: string, windowStart: number, windowMs: number, count = 1): Promise<WindowCounts> {
    const row = this.db
      .query<{ hits: number }, [string, number, number]>(
        `INSERT INTO rate_windows (bucket, window_start, hits) VALUES (?, ?, ?)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + excluded.hits RETURNING hits`,
      )
      .get(bucket, windowStart, count)!;
    return { current: row.hits, previous: this.count(bucket, windowStart - windowMs) };
  }

  async peek(bucket: string, windowStart: number, windowMs: number): Promise<WindowCounts> {
    return { current: this.count(bucket, windowStart), previous: this.count(bucket, windowStart - windowMs) };
  }

  async prune(prefix: string, before: number): Promise<number> {
    return this.db
      .query("DELETE FROM rate_windows WHERE bucket >= ? AND bucket < ? AND window_start < ?")
      .run(prefix, prefixEnd(prefix), before).changes;
  }

  private count(bucket: string, windowStart: number): number {
    return (
      this.db
        .query<{ hits: number }, [string, number]>(
          "SELECT hits FROM rate_windows WHERE bucket = ? AND window_start = ?",
        )
        .get(bucket, windowStart)?.hits ?? 0
    );
  }
}
