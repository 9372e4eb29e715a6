// The package entry under Bun (package.json's `bun` condition): everything of the portable entry
// (src/client.ts, what Node and browsers load), with the real createEngram and createServer in
// place of its stand-ins. `import { createClient, createEngram, GovernanceValidationError } from "engram"`.
export * from "./client";
export { createEngram } from "./sdk/in-process";
export { createServer } from "./main";
