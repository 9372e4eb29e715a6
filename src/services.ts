// The services the composition root builds and the adapters (HTTP, MCP, SDK) call.
import type { MemoryService } from "~/memory/memory.service";
import type { SearchService } from "~/search/search.service";
import type { Config } from "~/config/config.schema";
import type { Logger } from "~/shared/logger";

export interface Services {
  config: Config;
  logger: Logger;
  version: string;
  memory: MemoryService;
  search: SearchService;
}
