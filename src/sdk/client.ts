// The SDK interface: one shape for the memory operations, `spaces.*` and `governance.*`, implemented
// over HTTP (createClient) and in-process (createEngram).
import type {
  AddMemoriesInput,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  PromoteMemoryInput,
  PromoteResponse,
  SearchMemoryInput,
  SearchResponse,
  SpaceMemoryRef,
  SupersedeMemoryInput,
  SupersedeResponse,
  UpdateMemoryInput,
  VersionsResponse,
} from "~/memory/memory.schema";
import type {
  CreateSpaceInput,
  DeleteSpaceResponse,
  SetMembersInput,
  SpaceListResponse,
  SpaceResponse,
} from "~/spaces/spaces.schema";
import type {
  GovernancePolicy,
  GovernancePolicyPatch,
  PolicyResult,
  PolicyRules,
  PolicyScope,
} from "~/governance/policy.schema";
import type {
  ComplianceReport,
  EnforceOptions,
  EnforcementResult,
  EnforcementStats,
  SimulationImpact,
} from "~/governance/operations.schema";

export interface ComplianceReportInput {
  organizationId?: string;
  memorySpaceId?: string;
  period: { start: Date | string | number; end: Date | string | number };
}

export interface GovernanceClient {
  setPolicy(policy: GovernancePolicy): Promise<PolicyResult>;
  getPolicy(scope?: PolicyScope): Promise<PolicyRules & PolicyScope>;
  /** Removes the scope's own policy (an organization's, or a memory space's override); the next level applies. */
  removePolicy(scope: PolicyScope): Promise<{ success: true; removed: boolean }>;
  setAgentOverride(memorySpaceId: string, overrides: GovernancePolicyPatch): Promise<void>;
  getTemplate(name: string): Promise<PolicyRules>;
  enforce(options: EnforceOptions): Promise<EnforcementResult>;
  simulate(policy: GovernancePolicyPatch): Promise<SimulationImpact>;
  getComplianceReport(options: ComplianceReportInput): Promise<ComplianceReport>;
  getEnforcementStats(options: { period: string }): Promise<EnforcementStats>;
}

/** Shared spaces of the organization (SPEC §8): create, setMembers and delete need an admin key. */
export interface SpacesClient {
  create(input: CreateSpaceInput): Promise<SpaceResponse>;
  /** An admin: every space of the organization; anyone else: the spaces their user belongs to. */
  list(): Promise<SpaceListResponse>;
  get(spaceId: string): Promise<SpaceResponse>;
  /** The members given become the whole membership. */
  setMembers(spaceId: string, input: SetMembersInput): Promise<SpaceResponse>;
  /** Deletes the space and everything stored in it (CONFLICT while a minimum retention holds any of it). */
  delete(spaceId: string): Promise<DeleteSpaceResponse>;
}

export interface EngramClient {
  addMemories(input: AddMemoriesInput): Promise<{ success: true; memory_ids: string[] }>;
  searchMemory(input: SearchMemoryInput): Promise<SearchResponse>;
  listMemories(input: ListMemoriesInput): Promise<ListResponse>;
  /** With space_id: a memory of that shared space (members). */
  getMemory(ref: SpaceMemoryRef): Promise<MemoryResponse>;
  updateMemory(input: UpdateMemoryInput): Promise<MemoryResponse>;
  /** With space_id: a memory of that shared space (writers). */
  deleteMemory(ref: SpaceMemoryRef): Promise<DeleteResponse>;
  deleteAllMemories(input: DeleteAllInput): Promise<DeleteResponse>;
  /** A memory's previous texts and those of the memories it superseded, newest first. */
  memoryVersions(ref: MemoryRef): Promise<VersionsResponse>;
  /** Stores the fact as it is now and marks the memory superseded by it. */
  supersedeMemory(input: SupersedeMemoryInput): Promise<SupersedeResponse>;
  /** Copies one of the user's memories into a shared space, with metadata.provenance. */
  promoteMemory(input: PromoteMemoryInput): Promise<PromoteResponse>;
  spaces: SpacesClient;
  governance: GovernanceClient;
  close(): Promise<void>;
}
