// The services the composition root builds and the adapters (HTTP, MCP, SDK) call.
import type { MemoryService } from "~/memory/memory.service";
import type { SearchService } from "~/search/search.service";
import type { Config } from "~/config/config.schema";
import type { Logger } from "~/shared/logger";
import type { ConversationsService } from "~/layers/conversations.service";
import type { ImmutableService } from "~/layers/immutable.service";
import type { MutableService } from "~/layers/mutable.service";
import type { GovernanceService } from "~/governance/governance.service";
import type { GraphService } from "~/graph/graph.service";
import type { SessionsService } from "~/sessions/sessions.service";
import type { KeysService } from "~/identity/keys.service";
import type { RequestLimits } from "~/identity/request-limits";
import type { OidcVerifier } from "~/identity/oidc";
import type { RequestAudit } from "~/identity/request-audit";
import type { SpacesService } from "~/spaces/spaces.service";
import type { SharedMemory } from "~/spaces/shared-memory";

/** The store as /health and /ready report it. */
export interface StoreStatus {
  kind: "sqlite" | "postgres";
  reachable: boolean;
}

export interface Services {
  config: Config;
  /** Asks the store now whether it answers. */
  storeStatus(): Promise<StoreStatus>;
  logger: Logger;
  version: string;
  memory: MemoryService;
  /** Shared spaces of an organization (SPEC §8): spaces, members, access. */
  spaces: SpacesService;
  /** The memory operations as clients call them: the memory service, across shared spaces when asked. */
  shared: SharedMemory;
  search: SearchService;
  conversations: ConversationsService;
  immutable: ImmutableService;
  mutable: MutableService;
  governance: GovernanceService;
  graph: GraphService;
  sessions: SessionsService;
  keys: KeysService;
  /** Rate limits and the throttling of failed authentications (SPEC §8). */
  limits: RequestLimits;
  /** OIDC bearer tokens, when an issuer is configured. */
  tokens?: OidcVerifier;
  audit: RequestAudit;
}
