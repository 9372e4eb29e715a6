// Rate-limit counters in PostgreSQL (store/repos/rate-limit-repo.ts): one atomic upsert per hit, so
// concurrent nodes never lose one.
import type { Pg } from "./connection";
import { prefixEnd, type RateLimitRepo, type WindowCounts } from "../repos/rate-limit-repo";

export class PgRateLimitRepo implements RateLimitRepo {
  constructor(private readonly pg: Pg) {}

  async hit(bucket: string, windowStart: number, windowMs: number, count = 1): Promise<WindowCounts> {
    const row = await this.pg.one<{ hits: number }>(
      `INSERT INTO rate_windows (bucket, window_start, hits) VALUES ($1, $2, $3)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_windows.hits + excluded.hits RETURNING hits`,
      [bucket, windowStart, count],
    );
    return { current: Number(row!.hits), previous: await this.count(bucket, windowStart - windowMs) };
  }

  async peek(bucket: string, windowStart: number, windowMs: number): Promise<WindowCounts> {
    return {
      current: await this.count(bucket, windowStart),
      previous: await this.count(bucket, windowStart - windowMs),
    };
  }

  prune(prefix: string, before: number): Promise<number> {
    return this.pg.run("DELETE FROM rate_windows WHERE bucket >= $1 AND bucket < $2 AND window_start < $3", [
      prefix,
      prefixEnd(prefix),
      before,
    ]);
  }

  private async count(bucket: string, windowStart: number): Promise<number> {
    const row = await this.pg.one<{ hits: number }>(
      "SELECT hits FROM rate_windows WHERE bucket = $1 AND window_start = $2",
      [bucket, windowStart],
    );
    return Number(row?.hits ?? 0);
  }
}
