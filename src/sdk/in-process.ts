// createEngram({storeUrl}): the SDK in-process — the same services the server runs, no HTTP.
import { loadConfig, type ServerOptions } from "~/config/load-config";
import { buildServices, type BuildOptions } from "~/main";
import { checkInput } from "~/shared/validate";
import {
  AddMemoriesInput,
  DeleteAllInput,
  ListMemoriesInput,
  MemoryRef,
  SearchMemoryInput,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
import type { EngramClient } from "./client";

export async function createEngram(options: ServerOptions & BuildOptions = {}): Promise<EngramClient> {
  const { clock, logger, embedder, ...serverOptions } = options;
  const s = await buildServices(loadConfig({ options: { storeUrl: "sqlite::memory:", ...serverOptions } }), {
    clock,
    logger,
    embedder,
  });
  const g = s.governance;
  return {
    addMemories: async (i) => s.memory.add(checkInput(AddMemoriesInput, i)),
    searchMemory: async (i) => s.memory.searchMemories(checkInput(SearchMemoryInput, i)),
    listMemories: async (i) => s.memory.list(checkInput(ListMemoriesInput, i)),
    getMemory: async (r) => s.memory.get(checkInput(MemoryRef, r)),
    updateMemory: async (i) => s.memory.update(checkInput(UpdateMemoryInput, i)),
    deleteMemory: async (r) => s.memory.delete(checkInput(MemoryRef, r)),
    deleteAllMemories: async (i) => s.memory.deleteAll(checkInput(DeleteAllInput, i)),
    governance: {
      setPolicy: async (p) => g.setPolicy(p),
      getPolicy: async (scope) => g.getPolicy(scope),
      removePolicy: async (scope) => g.removePolicy(scope),
      setAgentOverride: async (space, overrides) => g.setAgentOverride(space, overrides),
      getTemplate: async (name) => g.getTemplate(name),
      enforce: async (o) => g.enforce(o),
      simulate: async (p) => g.simulate(p),
      getComplianceReport: async (o) => g.getComplianceReport(o),
      getEnforcementStats: async (o) => g.getEnforcementStats(o),
    },
    close: () => s.close(),
  };
}
