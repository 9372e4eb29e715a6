// The 60 s search-result cache of SPEC §2.3, bounded in total size (LRU), keyed by organization and
// user (SPEC §8). A user's write bumps
// that user's generation so their old entries are never served; a write by another process on
// the same store (seen through Store.externalVersion) drops everything.
import type { Owner, Store } from "~/store/store";
import { ownerKey } from "~/shared/principal";
import { LruCache } from "~/search/lru-cache";

export const SEARCH_CACHE_TTL_MS = 60_000;
/** Entries across all users: bounds memory whatever the number of users (≈ a few KB each). */
const MAX_ENTRIES = 5_000;

export interface Snapshot {
  /** Bumped by clear(), which forgets the per-user generations. */
  epoch: number;
  generation: number;
  dataVersion: number;
}

interface Entry<V> {
  until: number;
  generation: number;
  value: V;
}

export class SearchCache<V> {
  private readonly entries = new LruCache<string, Entry<V>>(MAX_ENTRIES);
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private dataVersion: number;
  hits = 0;
  misses = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.dataVersion = this.readDataVersion();
  }

  get(owner: Owner, key: string): V | undefined {
    this.syncWithOtherProcesses();
    const who = ownerKey(owner);
    const entry = this.entries.get(`${who}\u0000${key}`);
    if (entry && this.now() < entry.until && entry.generation === (this.generations.get(who) ?? 0)) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Taken before computing a value that `set` will store: a value read on another connection (a search
   * worker) can be answered after a write that it did not see, and must then not be cached.
   */
  snapshot(owner: Owner): Snapshot {
    const generation = this.generations.get(ownerKey(owner)) ?? 0;
    return { epoch: this.epoch, generation, dataVersion: this.readDataVersion() };
  }

  /**
   * `expiresAt`: the earliest expiry among the cached results — an entry never outlives them. `since`:
   * the snapshot taken before the value was computed; nothing is stored if the user or another process
   * wrote since.
   */
  set(owner: Owner, key: string, value: V, expiresAt = Infinity, since?: Snapshot): void {
    const who = ownerKey(owner);
    const generation = this.generations.get(who) ?? 0;
    if (
      since &&
      (since.epoch !== this.epoch || since.generation !== generation || since.dataVersion !== this.readDataVersion())
    )
      return;
    const until = Math.min(this.now() + SEARCH_CACHE_TTL_MS, expiresAt);
    this.entries.set(`${who}\u0000${key}`, { until, generation, value });
  }

  invalidate(owner: Owner): void {
    const who = ownerKey(owner);
    this.generations.set(who, (this.generations.get(who) ?? 0) + 1);
    // Generations only need to outlive the entries they guard; forget them all when the map grows large.
    if (this.generations.size > 100_000) this.clear();
  }

  clear(): void {
    this.entries.clear();
    this.generations.clear();
    this.epoch++;
  }

  get hitRate(): number {
    const n = this.hits + this.misses;
    return n ? this.hits / n : 0;
  }

  private readDataVersion(): number {
    return this.store.externalVersion();
  }

  private syncWithOtherProcesses(): void {
    const v = this.readDataVersion();
    if (v !== this.dataVersion) {
      this.dataVersion = v;
      this.entries.clear();
    }
  }
}
