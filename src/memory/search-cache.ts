// The 60 s search-result cache of SPEC §2.3. A user's write drops that user's entries; a
// write by another process on the same file (seen through PRAGMA data_version) drops all.
import type { Db } from "~/store/sqlite";

export const SEARCH_CACHE_TTL_MS = 60_000;
const MAX_USERS = 10_000;
const MAX_PER_USER = 256;

export class SearchCache<V> {
  private readonly byUser = new Map<string, Map<string, { until: number; value: V }>>();
  private dataVersion: number;
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.dataVersion = this.readDataVersion();
  }

  get(userId: string, key: string): V | undefined {
    this.syncWithOtherProcesses();
    const entry = this.byUser.get(userId)?.get(key);
    if (entry && this.now() < entry.until) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    return undefined;
  }

  /** `expiresAt`: the earliest expiry among the cached results — an entry never outlives them. */
  set(userId: string, key: string, value: V, expiresAt = Infinity): void {
    let m = this.byUser.get(userId);
    if (!m) {
      if (this.byUser.size >= MAX_USERS) this.byUser.clear();
      this.byUser.set(userId, (m = new Map()));
    }
    if (m.size >= MAX_PER_USER) m.clear();
    m.set(key, { until: Math.min(this.now() + SEARCH_CACHE_TTL_MS, expiresAt), value });
  }

  invalidate(userId: string): void {
    this.byUser.delete(userId);
  }

  clear(): void {
    this.byUser.clear();
  }

  get hitRate(): number {
    const n = this.hits + this.misses;
    return n ? this.hits / n : 0;
  }

  private readDataVersion(): number {
    return this.db.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
  }

  private syncWithOtherProcesses(): void {
    const v = this.readDataVersion();
    if (v !== this.dataVersion) {
      this.dataVersion = v;
      this.byUser.clear();
    }
  }
}
