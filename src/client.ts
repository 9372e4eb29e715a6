// The package entry outside Bun (Node ≥ 20, browsers, bundlers) and the package's type surface:
// createClient over HTTP with the error classes and types; createEngram and createServer are the
// Bun-only stand-ins of sdk/bun-only.ts. Under Bun, package.json's `bun` condition loads src/index.ts.
// Nothing here may import Bun or Node modules: scripts/build-lib.ts bundles it for every runtime.
export { createClient, type ClientOptions, type FetchLike } from "./sdk/http-client";
export type { EngramClient, GovernanceClient, SpacesClient, ComplianceReportInput } from "./sdk/client";
export { AppError, GovernanceValidationError } from "./shared/errors";
export type { AppErrorCode, GovernanceErrorCode } from "./shared/errors";
export type { ServerOptions } from "./config/config.schema";
export { createEngram, createServer } from "./sdk/bun-only";
export type {
  AddMemoriesInput,
  AddResponse,
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
} from "./memory/memory.schema";
export type {
  CreateSpaceInput,
  DeleteSpaceResponse,
  SetMembersInput,
  SpaceListResponse,
  SpaceResponse,
} from "./spaces/spaces.schema";
export type {
  GovernancePolicy,
  GovernancePolicyPatch,
  PolicyResult,
  PolicyRules,
  PolicyScope,
} from "./governance/policy.schema";
export type {
  ComplianceReport,
  EnforceOptions,
  EnforcementResult,
  EnforcementStats,
  SimulationImpact,
} from "./governance/operations.schema";
