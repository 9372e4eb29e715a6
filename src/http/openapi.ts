// The OpenAPI 3.1 document, built from the route table: each route's spec (route-spec.ts) gives its
// parameters, body, 200 answer, errors, security and examples, and http/errors.ts gives the envelope
// and each code's status. The /v1 twins are the same routes and are described once (servers).
import type { TObject, TSchema } from "@sinclair/typebox";
import { GOVERNANCE_ERROR_CODES, type AppErrorCode } from "~/shared/errors";
import { ErrorEnvelope, STATUS } from "./errors";
import { specOf, type RouteSpec } from "./route-spec";
import { ERROR_TEXT, NAMED_SCHEMAS, TAGS } from "./openapi-text";

type Json = Record<string, unknown>;
type Code = AppErrorCode | "GOVERNANCE";
export interface RouteEntry {
  method: string;
  path: string;
  hooks?: { detail?: unknown };
}

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** The codes a route can answer: its own, plus those its shape implies (input, body, auth, writes, bugs). */
export function errorsOf(s: RouteSpec, method: string): Code[] {
  const codes = new Set<Code>();
  if (s.params || s.query || s.body) codes.add("VALIDATION_ERROR");
  if (s.governance) codes.add("GOVERNANCE");
  if (s.body || s.governance?.body)
    for (const c of ["INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] as const) codes.add(c);
  if (s.access.kind !== "public") {
    codes.add("UNAUTHORIZED");
    // Authentication's own answers (SPEC §8): the rate limits, and an OIDC issuer that cannot be reached.
    codes.add("RATE_LIMITED");
    codes.add("UNAVAILABLE");
  }
  // The pipeline checks Host and Origin on every request (http/host-check.ts), and every rule but
  // `public` may refuse a key's role or binding (SPEC §8).
  codes.add("FORBIDDEN");
  for (const c of s.errors ?? []) codes.add(c);
  if (s.writes ?? method !== "GET") codes.add("STORAGE_FULL");
  codes.add("INTERNAL_ERROR");
  return [...codes];
}

const statusOf = (c: Code) => (c === "GOVERNANCE" ? 400 : STATUS[c]);

function errorResponses(s: RouteSpec, method: string): Json {
  const byStatus = new Map<number, Code[]>();
  for (const c of errorsOf(s, method)) byStatus.set(statusOf(c), [...(byStatus.get(statusOf(c)) ?? []), c]);
  const out: Json = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const first = codes[0]!;
    out[status] = {
      description: codes
        .map((c) => `${c === "GOVERNANCE" ? GOVERNANCE_ERROR_CODES.join(" | ") : c}: ${ERROR_TEXT[c].when}`)
        .join("; "),
      ...(status === 401 ? { headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } } } : {}),
      ...(status === 429
        ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } } }
        : {}),
      content: { "application/json": { schema: ERROR_REF, example: ERROR_TEXT[first].example } },
    };
  }
  return out;
}

/**
 * A named answer schema becomes a $ref to components/schemas; the names used are collected in `used`.
 * Request bodies stay inline: openapi-typescript makes a component's defaulted properties required,
 * which would force callers to send every default (it exempts only schemas written under requestBody).
 */
function schemaRef(schema: TSchema, used: Map<string, TSchema>): Json {
  const name = NAMED_SCHEMAS.get(schema);
  if (!name) return schema as Json;
  used.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

const exampleOf = (schema: TSchema | undefined): unknown => (schema?.examples as unknown[] | undefined)?.[0];

function parameters(where: "path" | "query", schema: TObject | undefined): Json[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  const example = exampleOf(schema) as Json | undefined;
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = s as Json;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

function operation(r: RouteEntry, s: RouteSpec, used: Map<string, TSchema>): Json {
  const params = s.params ?? s.governance?.params;
  const query = s.query ?? s.governance?.query;
  const body = s.body ?? s.governance?.body;
  const optionalBody = s.optionalBody ?? s.governance?.optionalBody;
  const ok: Json = {
    "application/json": { schema: schemaRef(s.response, used), example: s.examples?.response ?? exampleOf(s.response) },
  };
  if (s.text)
    ok[s.text.mediaType] = { schema: { type: "string", description: s.text.description }, example: s.text.example };
  return {
    tags: [s.tag],
    summary: s.summary,
    ...(s.description ? { description: s.description } : {}),
    operationId: operationId(r.method, r.path),
    ...(params || query ? { parameters: [...parameters("path", params), ...parameters("query", query)] } : {}),
    ...(body
      ? {
          requestBody: {
            required: !optionalBody,
            content: {
              "application/json": { schema: body, example: s.examples?.body ?? exampleOf(body) },
            },
          },
        }
      : {}),
    responses: { 200: { description: "OK", content: ok }, ...errorResponses(s, r.method) },
    security: s.access.kind === "public" ? [] : [{ bearer: [] }],
    "x-engram-access": s.access.kind === "user" ? (s.access.write ? "user-write" : "user-read") : s.access.kind,
  };
}

/** post /conversations/:id/messages → postConversationsByIdMessages */
export function operationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((p) => (p.startsWith(":") ? `By_${p.slice(1)}` : p))
    .flatMap((p) => p.split(/[_-]/))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join("");
}

const isHidden = (hooks: RouteEntry["hooks"]) => (hooks?.detail as { hide?: boolean } | undefined)?.hide === true;

/** The document, and the routes that have neither a spec nor `detail.hide` (the OpenAPI test requires none). */
export function openApiDocument(routes: readonly RouteEntry[], version: string) {
  const paths: Record<string, Json> = {};
  const undocumented: string[] = [];
  const used = new Map<string, TSchema>();
  for (const r of routes) {
    if (r.path.startsWith("/v1/") || isHidden(r.hooks)) continue;
    const s = specOf(r.hooks);
    if (!s) {
      undocumented.push(`${r.method} ${r.path}`);
      continue;
    }
    const path = r.path.replace(/:([^/]+)/g, "{$1}");
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r, s, used);
  }
  const schemas: Json = { Error: ErrorEnvelope };
  for (const [name, schema] of [...used].sort(([a], [b]) => a.localeCompare(b))) schemas[name] = schema;
  const document = {
    openapi: "3.1.0",
    info: {
      title: "Engram",
      version,
      description: [
        "Shared memory server for AI tools, with governance.",
        "Every route also answers under the /v1 prefix. Every error answers the envelope `Error` (SPEC §2.1).",
      ].join("\n\n"),
    },
    servers: [
      { url: "/", description: "This server" },
      { url: "/v1", description: "The same routes under /v1" },
    ],
    tags: TAGS,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "Required when the server runs with --auth: a shared key (MCP_API_KEY, an admin of the server's organization), an identity key (egk_…, bound to an organization, a role and optionally a user and an agent), or an OIDC token of the configured issuer. `x-engram-access` on each operation says who may call it: public, authenticated, user-read / user-write (an admin for any user of its organization; member and reader keys only as their own user; readers never write), org (any role reads), admin, operator (an admin of the server's own organization).",
        },
      },
    },
  };
  // Through JSON: TypeBox's symbol keys go, and the document is plain data a caller may keep.
  return { document: toDraft2020(JSON.parse(JSON.stringify(document))) as Json, undocumented };
}

/**
 * TypeBox writes a tuple in draft-07 form (items: [...], additionalItems); OpenAPI 3.1 speaks JSON Schema
 * 2020-12, where that is prefixItems and items: false. Examples are data, not schemas: left as they are.
 */
function toDraft2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDraft2020);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "example" || k === "examples" ? v : toDraft2020(v);
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    out.items = out.additionalItems ?? false;
    delete out.additionalItems;
  }
  return out;
}
