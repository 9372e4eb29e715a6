// The package entry: `import { createClient, createEngram, GovernanceValidationError } from "engram"`.
export { createClient, type ClientOptions } from "./sdk/http-client";
export { createEngram } from "./sdk/in-process";
export type { EngramClient, GovernanceClient, ComplianceReportInput } from "./sdk/client";
export { AppError, GovernanceValidationError } from "./shared/errors";
export { createServer } from "./main";
export type { ServerOptions } from "./config/load-config";
