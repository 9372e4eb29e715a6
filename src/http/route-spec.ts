// One description per HTTP route: Elysia validates the route's input from it, and http/openapi.ts
// builds the route's OpenAPI operation from the same object. A route without one fails the OpenAPI test.
import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import type { AppErrorCode } from "~/shared/errors";
import type { Access } from "~/identity/access";
import { queryConverter } from "./query";

/** Where the spec sits in a route's `detail` (an OpenAPI extension name, so the plain detail stays valid). */
export const SPEC = "x-engram-spec";

export interface RouteSpec {
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters, validated by Elysia. */
  params?: TObject;
  /** Query-string parameters, validated by Elysia after query.ts converts numbers and booleans. */
  query?: TObject;
  /** The JSON body, validated by Elysia. */
  body?: TSchema;
  optionalBody?: boolean;
  /**
   * Input checked by the governance validators instead of Elysia, so HTTP answers the seed's codes
   * (SPEC §5.6: INVALID_PERIOD, …) with status 400, exactly as the SDK throws them. Documented only.
   */
  governance?: { body?: TSchema; optionalBody?: boolean; params?: TObject; query?: TObject };
  /** The 200 answer. Documented, not checked per request (test/openapi/client.test.ts checks it). */
  response: TSchema;
  /** The same 200 as text too (content negotiation by Accept), e.g. the Prometheus exposition format. */
  text?: { mediaType: string; description: string; example: string };
  /** Examples for schemas that carry none in their `examples` keyword (e.g. whole policies). */
  examples?: { body?: unknown; response?: unknown };
  /** Errors of this route beyond those its shape implies (see openapi.ts: errorsOf). */
  errors?: readonly AppErrorCode[];
  /**
   * Who may call it (SPEC §8; identity/access.ts): required, so a route cannot exist without a rule. The
   * pipeline applies it to every request (http/access.ts) and the OpenAPI document states it.
   */
  access: Access;
  /** Writes to the store, so a full disk answers 507 STORAGE_FULL. Default: every method but GET. */
  writes?: boolean;
}

/** The schemas S declares for Elysia; an undeclared one is left out (Elysia then types that part itself). */
type Schemas<S> = (S extends { params: infer T extends TSchema } ? { params: T } : {}) &
  (S extends { query: infer T extends TSchema } ? { query: T } : {}) &
  (S extends { body: infer T extends TSchema } ? { body: T } : {});

/**
 * Elysia sets `additionalProperties: false` on an input schema that does not say, in place and only when the
 * route first compiles: the same schema object then changed for MCP and the SDK, and the OpenAPI document
 * changed with the traffic. So each input schema must say it itself.
 */
function mustSayAdditional(summary: string, schemas: (TSchema | undefined)[]): void {
  for (const schema of schemas)
    if (schema?.type === "object" && !("additionalProperties" in schema))
      throw new Error(`route "${summary}": give its input schema an explicit additionalProperties (usually false)`);
}

/** A route's spec as the hook Elysia wants: validation schemas plus the spec itself under `detail`. */
export function spec<const S extends RouteSpec>(s: S) {
  mustSayAdditional(s.summary, [s.params, s.query, s.body]);
  return {
    ...(s.params ? { params: s.params } : {}),
    ...(s.query ? { query: s.query, transform: queryConverter(s.query) } : {}),
    // Type.Optional lets Elysia accept a request without a body for the routes that allow one.
    ...(s.body ? { body: s.optionalBody ? Type.Optional(s.body) : s.body } : {}),
    detail: { tags: [s.tag], summary: s.summary, [SPEC]: s } as { tags: string[]; summary: string },
  } as Schemas<S> & { detail: { tags: string[]; summary: string } };
}

/** The spec of a route, from its Elysia hooks; undefined when the route was not declared with spec(). */
export const specOf = (hooks: { detail?: unknown } | undefined): RouteSpec | undefined =>
  (hooks?.detail as Record<string, RouteSpec> | undefined)?.[SPEC];
