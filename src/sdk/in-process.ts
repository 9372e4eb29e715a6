// createEngram({storeUrl}): the SDK in-process — the same services the server runs, no HTTP.
import { loadConfig, type ServerOptions } from "~/config/load-config";
import { buildServices, type BuildOptions } from "~/main";
import { checkInput } from "~/shared/validate";
import {
  AddMemoriesInput,
  DeleteAllInput,
  ListMemoriesInput,
  MemoryRef,
  PromoteMemoryInput,
  SearchMemoryInput,
  SpaceMemoryRef,
  SupersedeMemoryInput,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
import { CreateSpaceInput, SetMembersInput, SpacePath } from "~/spaces/spaces.schema";
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
  // In-process, the caller is the trusted operator: an admin of the store's organization (SPEC §8), whose
  // governance operations are that organization's.
  const org = s.config.orgId;
  const as = <T extends { user_id?: string }>(write: boolean, input: T): [UserScope, T] => [
    userScope(operator(org), write, input),
    input,
  ];
  return {
    addMemories: async (i) => s.shared.add(...as(true, checkInput(AddMemoriesInput, i))),
    searchMemory: async (i) => s.shared.search(...as(false, checkInput(SearchMemoryInput, i))),
    listMemories: async (i) => s.shared.list(...as(false, checkInput(ListMemoriesInput, i))),
    getMemory: async (r) => s.shared.get(...as(false, checkInput(SpaceMemoryRef, r))),
    updateMemory: async (i) => s.shared.update(...as(true, checkInput(UpdateMemoryInput, i))),
    deleteMemory: async (r) => s.shared.delete(...as(true, checkInput(SpaceMemoryRef, r))),
    deleteAllMemories: async (i) => s.memory.deleteAll(...as(true, checkInput(DeleteAllInput, i))),
    memoryVersions: async (r) => {
      const [who, { memory_id }] = as(false, checkInput(MemoryRef, r));
      return s.memory.versions(who, { memory_id });
    },
    supersedeMemory: async (i) => {
      const [who, { memory_id, user_id: _, ...body }] = as(true, checkInput(SupersedeMemoryInput, i));
      return s.memory.supersede(who, { memory_id }, body);
    },
    promoteMemory: async (i) => {
      const [who, { memory_id, space_id }] = as(true, checkInput(PromoteMemoryInput, i));
      return s.shared.promote(who, memory_id, { space_id });
    },
    spaces: {
      create: async (i) => s.spaces.create(org, checkInput(CreateSpaceInput, i), null),
      list: async () => s.spaces.list({ org }),
      get: async (id) => s.spaces.get({ org }, spaceId(id)),
      setMembers: async (id, i) => s.spaces.setMembers(org, spaceId(id), checkInput(SetMembersInput, i)),
      delete: async (id) => s.spaces.delete(org, spaceId(id)),
    },
    governance: {
      setPolicy: async (p) => g.setPolicy(p, org),
      getPolicy: async (scope) => g.getPolicy(scope, org),
      removePolicy: async (scope) => g.removePolicy(scope, org),
      setAgentOverride: async (space, overrides) => g.setAgentOverride(space, overrides, org),
      getTemplate: async (name) => g.getTemplate(name),
      enforce: async (o) => g.enforce(o, org),
      simulate: async (p) => g.simulate(p, org),
      getComplianceReport: async (o) => g.getComplianceReport(o, org),
      getEnforcementStats: async (o) => g.getEnforcementStats(o, org),
    },
    close: () => s.close(),
  };
}

const spaceId = (id: unknown): string => checkInput(SpacePath, { id }).id;
