// The repositories of store/repos/ as the PostgreSQL store implements them: one set per transaction,
// over that transaction's connection.
import type { Repos } from "../store";
import type { Pg } from "./connection";
import { PgMemoryRepo } from "./memory-repo";
import { PgFactRepo } from "./fact-repo";
import { PgSearchRepo } from "./search-repo";
import { PgVectorRepo } from "./vector-repo";
import { PgConversationRepo } from "./conversation-repo";
import { PgImmutableRepo } from "./immutable-repo";
import { PgMutableRepo } from "./mutable-repo";
import { PgSessionRepo } from "./session-repo";
import { PgGovernanceRepo } from "./governance-repo";
import { PgInventoryRepo, PgRetentionRepo } from "./retention-repo";
import { PgGraphRepo } from "./graph-repo";
import { PgKeyRepo } from "./key-repo";
import { PgRateLimitRepo } from "./rate-limit-repo";
import { PgSpaceRepo } from "./space-repo";

/** The repositories over one transaction; `writing`: rows read for an update are locked (FOR UPDATE). */
export function reposOf(pg: Pg, writing: boolean): Repos {
  return {
    memories: new PgMemoryRepo(pg, writing),
    facts: new PgFactRepo(pg),
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
    keys: new PgKeyRepo(pg),
    rateLimits: new PgRateLimitRepo(pg),
    spaces: new PgSpaceRepo(pg),
  };
}
