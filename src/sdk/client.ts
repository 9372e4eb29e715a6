// The SDK interface: one shape for the memory operations and `governance.*`, implemented
// over HTTP (createClient) and in-process (createEngram).
import type {
  AddMemoriesInput,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
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

export interface EngramClient {
  addMemories(input: AddMemoriesInput): Promise<{ success: true; memory_ids: string[] }>;
  searchMemory(input: SearchMemoryInput): Promise<SearchResponse>;
  listMemories(input: ListMemoriesInput): Promise<ListResponse>;
  getMemory(ref: MemoryRef): Promise<MemoryResponse>;
  updateMemory(input: UpdateMemoryInput): Promise<MemoryResponse>;
  deleteMemory(ref: MemoryRef): Promise<DeleteResponse>;
  deleteAllMemories(input: DeleteAllInput): Promise<DeleteResponse>;
  governance: GovernanceClient;
  close(): Promise<void>;
}
