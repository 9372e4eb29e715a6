// The repository interfaces of store/repos/ as the PostgreSQL store implements them: every method
// answers a promise (the SQLite store's answer at once), and one set of them per transaction.
import type { Repos } from "../store";
import type { Pg } from "./connection";
import { PgMemoryRepo } from "./memory-repo";
import { PgSearchRepo } from "./search-repo";
import { PgVectorRepo } from "./vector-repo";
import { PgConversationRepo } from "./conversation-repo";
import { PgImmutableRepo } from "./immutable-repo";
import { PgMutableRepo } from "./mutable-repo";
import { PgSessionRepo } from "./session-repo";
import { PgGovernanceRepo } from "./governance-repo";
import { PgInventoryRepo, PgRetentionRepo } from "./retention-repo";
import { PgGraphRepo } from "./graph-repo";

export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};

export type PgRepos = { [K in keyof Repos]: Async<Repos[K]> };

/** The repositories over one transaction; `writing`: rows read for an update are locked (FOR UPDATE). */
export function reposOf(pg: Pg, writing: boolean): PgRepos {
  return {
    memories: new PgMemoryRepo(pg, writing),
    search: new PgSearchRepo(pg),
    vectors: new PgVectorRepo(pg),
    conversations: new PgConversationRepo(pg),
    immutable: new PgImmutableRepo(pg),
    mutable: new PgMutableRepo(pg),
    sessions: new PgSessionRepo(pg, writing),
    governance: new PgGovernanceRepo(pg),
    retention: new PgRetentionRepo(pg),
    inventory: new PgInventoryRepo(pg),
    graph: new PgGraphRepo(pg),
  };
}
