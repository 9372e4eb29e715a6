// createClient({baseUrl, apiKey}): the SDK over HTTP. Error envelopes become the same
// exceptions the in-process SDK throws (GovernanceValidationError or AppError).
import {
  AppError,
  GovernanceValidationError,
  isGovernanceErrorCode,
  APP_ERROR_CODES,
  type AppErrorCode,
} from "~/shared/errors";
import { validateAgentOverride, validateRemoveScope, validateTemplateName } from "~/governance/validate";
import { isTemplateName } from "~/governance/policy.schema";
import { checkInput } from "~/shared/validate";
import { MemoryRef, PromoteMemoryInput, SupersedeMemoryInput } from "~/memory/memory.schema";
import { SpacePath } from "~/spaces/spaces.schema";
import type { EngramClient } from "./client";

/**
 * The part of `fetch` the client uses: the global `fetch` of Node ≥ 18, browsers, Bun and Deno fits,
 * and so does a wrapper (a proxy, retries, tracing). Spelled out so the types need no DOM library.
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export interface ClientOptions {
  /** Where `engram serve` answers, e.g. http://127.0.0.1:3000 (a /v1 suffix works too). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` (needed when the server runs with --auth). */
  apiKey?: string;
  /** Replaces the global fetch. */
  fetch?: FetchLike;
}

export function createClient(o: ClientOptions): EngramClient {
  const base = o.baseUrl.replace(/\/+$/, "");
  const call = async <T>(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<T> => {
    const qs = query
      ? new URLSearchParams(
          Object.entries(query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)] as [string, string]),
        ).toString()
      : "";
    const headers: Record<string, string> = {};
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await (o.fetch ?? fetch)(`${base}${path}${qs ? `?${qs}` : ""}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as Record<string, any> | null;
    if (res.ok) return json as T;
    throw toError(res.status, json);
  };
  const enc = encodeURIComponent;
  return {
    addMemories: (i) => call("POST", "/add_memories", i),
    searchMemory: (i) => call("POST", "/search_memory", i),
    listMemories: (i) => call("GET", "/list_memories", undefined, i),
    getMemory: (r) => call("GET", "/get_memory", undefined, r),
    updateMemory: (i) => call("POST", "/update_memory", i),
    deleteMemory: (r) => call("DELETE", "/delete_memory", undefined, r),
    deleteAllMemories: (i) => call("POST", "/delete_all_memories", i),
    // An id that is not a path segment ("" would reach another route): checked locally, with the server's rules.
    memoryVersions: async (r) => {
      const { memory_id, ...query } = checkInput(MemoryRef, r);
      return call("GET", `/memories/${enc(memory_id)}/versions`, undefined, query);
    },
    supersedeMemory: async (i) => {
      const { memory_id, ...body } = checkInput(SupersedeMemoryInput, i);
      return call("POST", `/memories/${enc(memory_id)}/supersede`, body);
    },
    promoteMemory: async (i) => {
      const { memory_id, ...body } = checkInput(PromoteMemoryInput, i);
      return call("POST", `/memories/${enc(memory_id)}/promote`, body);
    },
    spaces: {
      create: (i) => call("POST", "/spaces", i ?? null),
      list: () => call("GET", "/spaces"),
      get: async (id) => call("GET", spacePath(id)),
      setMembers: async (id, i) => call("PUT", `${spacePath(id)}/members`, i ?? null),
      delete: async (id) => call("DELETE", spacePath(id)),
    },
    governance: {
      setPolicy: (p) => call("POST", "/governance/policies", p ?? null),
      getPolicy: (scope) => call("GET", "/governance/policies", undefined, scope ?? {}),
      removePolicy: async (scope) => {
        // null cannot travel in a query string (it would arrive as "null"): validate locally, with the server's rules.
        validateRemoveScope(scope);
        return call("DELETE", "/governance/policies", undefined, scope);
      },
      setAgentOverride: async (space, overrides) => {
        // A blank id cannot be put in the path: validate locally, with the server's exact rules.
        if (typeof space !== "string" || !space.trim()) validateAgentOverride(space, overrides);
        await call("PUT", `/governance/overrides/${enc(space)}`, overrides ?? null);
      },
      getTemplate: async (name) => {
        // "", "." and ".." cannot travel as a path segment: check locally, with the server's exact rule.
        if (!isTemplateName(name)) validateTemplateName(name);
        return call("GET", `/governance/templates/${enc(name)}`);
      },
      enforce: (options) => call("POST", "/governance/enforce", options ?? null),
      simulate: (policy) => call("POST", "/governance/simulate", policy ?? null),
      getComplianceReport: (options) => call("POST", "/governance/compliance-report", options ?? null),
      getEnforcementStats: (options) => call("GET", "/governance/stats", undefined, { period: options?.period }),
    },
    close: async () => {},
  };
}

/** /spaces/<id>, the id checked first: one that is not a path segment answers as the server would. */
function spacePath(id: unknown): string {
  return `/spaces/${encodeURIComponent(checkInput(SpacePath, { id }).id)}`;
}

function toError(status: number, body: Record<string, any> | null): Error {
  const message = typeof body?.error === "string" ? body.error : `HTTP ${status}`;
  if (body?.name === "GovernanceValidationError" && isGovernanceErrorCode(body.code))
    return new GovernanceValidationError(body.code, message, body.field);
  const code: AppErrorCode = (APP_ERROR_CODES as readonly string[]).includes(body?.code)
    ? body!.code
    : "INTERNAL_ERROR";
  return new AppError(code, message, body?.field);
}
