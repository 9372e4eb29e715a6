// What this process remembers about users' memories besides the store: the search-result cache,
// list_memories' totals, the users seen (for /metrics) and search's per-user common words. One
// place says "these memories changed", for the memory service and for every purge alike.
import type { Owner, Store } from "~/store/store";
import { isSpaceOwnerId, ownerKey } from "~/shared/principal";
import type { SearchService } from "~/search/search.service";
import type { Clock } from "~/shared/clock";
import { SearchCache } from "./search-cache";
import type { SearchResponse } from "./memory.schema";

export class MemoryCaches {
  readonly results: SearchCache<SearchResponse>;
  readonly totals: SearchCache<number>;
  /** Users seen, by organization: no key to build per request (ownerKey's JSON.stringify was most of seen()). */
  private readonly usersSeen = new Map<string, Set<string>>();
  /** Each user's change counter as last read from a store that has one (PostgreSQL). */
  private readonly versions = new Map<string, number>();

  constructor(
    private readonly store: Store,
    clock: Clock,
    private readonly search: SearchService,
  ) {
    this.results = new SearchCache(store, () => clock.now());
    this.totals = new SearchCache(store, () => clock.now());
  }

  /** Distinct users seen by memory requests since start. */
  get uniqueUsers(): number {
    let users = 0;
    for (const inOrg of this.usersSeen.values()) users += inOrg.size;
    return users;
  }

  seen(owner: Owner): void {
    // A shared space's owner is not a user (/metrics' unique_users counts people).
    if (isSpaceOwnerId(owner.userId)) return;
    let users = this.usersSeen.get(owner.org);
    if (!users) this.usersSeen.set(owner.org, (users = new Set()));
    users.add(owner.userId);
  }

  /**
   * Before answering from the caches: on a store whose other writers are seen late (another node's
   * notification arrives after its commit), the user's change counter is read, and a change drops the
   * user's cached answers — a write acknowledged on any node is seen at once (the counter is the user's of
   * the organization).
   */
  async sync(owner: Owner): Promise<void> {
    if (!this.store.userChangeVersion) return;
    const v = await this.store.userChangeVersion(owner);
    const key = ownerKey(owner);
    if (this.versions.get(key) === v) return;
    if (this.versions.size > 100_000) this.versions.clear();
    this.versions.set(key, v);
    this.results.invalidate(owner);
    this.totals.invalidate(owner);
  }

  /** After `writes` memories of the user were stored, changed or deleted ("all": every one of them). */
  touched(owner: Owner, writes: number | "all"): void {
    this.seen(owner);
    this.results.invalidate(owner);
    this.totals.invalidate(owner);
    if (writes === "all") this.search.forgetUser(owner);
    else this.search.noteWrites(owner, writes);
  }
}
