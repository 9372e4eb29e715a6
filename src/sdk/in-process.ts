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
import { operator, type UserScope } from "~/shared/principal";
import { userScope } from "~/identity/access";

export async function createEngram(options: ServerOptions & BuildOptions = {}): Promise<EngramClient> {
  const { clock, logger, embedder, ...serverOptions } = options;
  const s = await buildServices(loadConfig({ options: { storeUrl: "sqlite::memory:", ...serverOptions } }), {
    clock,
    logger,
    embedder,
  });
  const g = s.governance;
  // In-process, the caller is the trusted operator: an admin of the store's organization (SPEC §8).
  const as = <T extends { user_id?: string }>(write: boolean, input: T): [UserScope, T] => [
    userScope(operator(s.config.orgId), write, input),
    input,
  ];
  return {
    addMemories: async (i) => s.shared.add(...as(true, checkInput(AddMemoriesInput, i))),
    searchMemory: async (i) => s.shared.search(...as(false, checkInput(SearchMemoryInput, i))),
    listMemories: async (i) => s.shared.list(...as(false, checkInput(ListMemoriesInput, i))),
    getMemory: async (r) => s.memory.get(...as(false, checkInput(MemoryRef, r))),
    updateMemory: async (i) => s.shared.update(...as(true, checkInput(UpdateMemoryInput, i))),
    deleteMemory: async (r) => s.memory.delete(...as(true, checkInput(MemoryRef, r))),
    deleteAllMemories: async (i) => s.memory.deleteAll(...as(true, checkInput(DeleteAllInput, i))),
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
