// What this process remembers about users' memories besides the store: the search-result cache,
// list_memories' totals, the users seen (for /metrics) and search's per-user common words. One
// place says "these memories changed", for the memory service and for every purge alike.
import type { Store } from "~/store/store";
import type { SearchService } from "~/search/search.service";
import type { Clock } from "~/shared/clock";
import { SearchCache } from "./search-cache";
import type { SearchResponse } from "./memory.schema";

export class MemoryCaches {
  readonly results: SearchCache<SearchResponse>;
  readonly totals: SearchCache<number>;
  private readonly usersSeen = new Set<string>();

  constructor(
    store: Store,
    clock: Clock,
    private readonly search: SearchService,
  ) {
    this.results = new SearchCache(store, () => clock.now());
    this.totals = new SearchCache(store, () => clock.now());
  }

  /** Distinct users seen by memory requests since start. */
  get uniqueUsers(): number {
    return this.usersSeen.size;
  }

  seen(userId: string): void {
    this.usersSeen.add(userId);
  }

  /** After `writes` memories of the user were stored, changed or deleted ("all": every one of them). */
  touched(userId: string, writes: number | "all"): void {
    this.usersSeen.add(userId);
    this.results.invalidate(userId);
    this.totals.invalidate(userId);
    if (writes === "all") this.search.forgetUser(userId);
    else this.search.noteWrites(userId, writes);
  }
}
