// The words of the OpenAPI document that no schema carries: what each error code means (with an
// example envelope), the tag descriptions, and the names under which shared schemas are listed.
import { Kind, type TSchema } from "@sinclair/typebox";
import type { AppErrorCode } from "~/shared/errors";
import * as memory from "~/memory/memory.schema";
import * as layers from "~/layers/layers.schema";
import * as sessions from "~/sessions/sessions.schema";
import * as graph from "~/graph/graph.schema";
import * as policy from "~/governance/policy.schema";
import * as operations from "~/governance/operations.schema";
import * as system from "./system.schema";
import * as keys from "~/identity/keys.schema";
import * as spaces from "~/spaces/spaces.schema";

const envelope = (code: string, error: string, field?: string) => ({
  success: false,
  error,
  code,
  ...(field ? { field } : {}),
});

/** Typed by the code list: a new AppError code does not compile until it is described here. */
export const ERROR_TEXT: Record<AppErrorCode | "GOVERNANCE", { when: string; example: unknown }> = {
  VALIDATION_ERROR: {
    when: "a field is missing, of the wrong type or out of range (`field` names it)",
    example: envelope("VALIDATION_ERROR", "user_id is required", "user_id"),
  },
  INVALID_JSON: { when: "the body is not JSON", example: envelope("INVALID_JSON", "request body is not valid JSON") },
  UNAUTHORIZED: {
    when: "auth is on and the key is missing or wrong",
    example: envelope("UNAUTHORIZED", "missing or invalid API key; send Authorization: Bearer <key>"),
  },
  FORBIDDEN: {
    when: "the Host or Origin header does not name this server (DNS-rebinding protection; --allowed-hosts)",
    example: envelope(
      "FORBIDDEN",
      "Host 'evil.example' is not allowed; start engram with --allowed-hosts=evil.example to accept it",
    ),
  },
  NOT_FOUND: {
    when: "no such record for this user (another user's id answers the same)",
    example: envelope("NOT_FOUND", "memory '0193a6b2-7c4e-7d3a-9f21-5b8e4c2d1a07' not found"),
  },
  METHOD_NOT_ALLOWED: {
    when: "known path, wrong method",
    example: envelope("METHOD_NOT_ALLOWED", "PUT is not allowed on /add_memories; use POST"),
  },
  CONFLICT: {
    when: "the state forbids it (session limit, ended session, archived conversation)",
    example: envelope("CONFLICT", "session limit reached: 5 active sessions"),
  },
  PAYLOAD_TOO_LARGE: {
    when: "the body is over ENGRAM_MAX_BODY_BYTES",
    example: envelope("PAYLOAD_TOO_LARGE", "request body exceeds 1048576 bytes"),
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: "a body without Content-Type: application/json",
    example: envelope("UNSUPPORTED_MEDIA_TYPE", "request body must be JSON with Content-Type: application/json"),
  },
  RATE_LIMITED: {
    when: "over ENGRAM_RATE_LIMIT for this key or token, or too many failed authentications from this address (Retry-After says when to retry)",
    example: envelope("RATE_LIMITED", "rate limit of 600/m exceeded; retry in 12 s"),
  },
  INTERNAL_ERROR: {
    when: "a bug; the log holds the details under the request id",
    example: envelope("INTERNAL_ERROR", "internal error (request id 0193a6b2-d4e6-7a80-9c1d-3e4f5a6b7c8d)"),
  },
  NOT_IMPLEMENTED: { when: "not built yet", example: envelope("NOT_IMPLEMENTED", "not implemented") },
  UNAVAILABLE: {
    when: "a dependency is down (search workers restarting, Neo4j unreachable, the OIDC issuer unreachable for a token)",
    example: envelope("UNAVAILABLE", "the graph database is unavailable"),
  },
  STORAGE_FULL: {
    when: "the store cannot grow (disk full, quota); nothing was written",
    example: envelope("STORAGE_FULL", "the store cannot grow (disk full or quota reached); nothing was written"),
  },
  GOVERNANCE: {
    when: "governance validation (SPEC §5.6; `name` is GovernanceValidationError)",
    example: {
      ...envelope("MISSING_REQUIRED_FIELD", "vector.retention is required", "vector.retention"),
      name: "GovernanceValidationError",
    },
  },
};

export const TAGS = [
  { name: "memories", description: "Store, search, list, update and delete a user's memories (SPEC §2)." },
  { name: "conversations", description: "Append-only message logs (layer: conversations)." },
  { name: "immutable", description: "Versioned organization-wide records (layer: immutable)." },
  { name: "mutable", description: "Key/value entries with optional expiry (layer: mutable)." },
  { name: "governance", description: "Retention policies, templates, enforcement, reports and audit (seed 001)." },
  { name: "graph", description: "Entities and relationships per user (SPEC §6)." },
  { name: "sessions", description: "Session lifecycle driven by the policy (SPEC §5.8)." },
  { name: "system", description: "Health and metrics." },
  { name: "admin", description: "Identity keys of the organization (SPEC §8): create, list, revoke. Admin keys only." },
  {
    name: "spaces",
    description:
      "Shared spaces of the organization (SPEC §8): admins create them with writer and reader members; the memory " +
      "routes write into them (space_id), read them (spaces, include_shared, get_memory space_id) and promote into them.",
  },
];

/** Exported schemas by identity → export name: a body or answer that is one of them becomes a $ref. */
export const NAMED_SCHEMAS = new Map<TSchema, string>();
for (const mod of [memory, layers, sessions, graph, policy, operations, system, keys, spaces])
  for (const [name, value] of Object.entries(mod))
    if (value && typeof value === "object" && Kind in value && !NAMED_SCHEMAS.has(value as TSchema))
      NAMED_SCHEMAS.set(value as TSchema, name);
