// Applies each route's access rule (route-spec.ts `access`, SPEC §8) to the request's principal, after
// validation and before the handler, and keeps the resulting scope for the handler. A route with no
// rule answers 403 to everyone (fail closed), and the access-matrix test names it.
import type { Elysia } from "elysia";
import { AppError } from "~/shared/errors";
import type { OrgScope, Principal, UserScope } from "~/shared/principal";
import { authorize, type Access, type Resolved } from "~/identity/access";
import { specOf } from "./route-spec";

/** Where a route that is not an API operation (MCP transports, the API page) keeps its rule. */
export const ACCESS_KEY = "x-engram-access";

/** The hooks of a route outside the OpenAPI document: hidden from it, with its access rule. */
export const hidden = (access: Access) => ({ detail: { hide: true, [ACCESS_KEY]: access } as { hide: boolean } });

/** The rule of a route, from its hooks (a spec's, or a hidden route's); undefined: it has none. */
export function accessOf(hooks: { detail?: unknown } | undefined): Access | undefined {
  return specOf(hooks)?.access ?? (hooks?.detail as Record<string, Access> | undefined)?.[ACCESS_KEY];
}

const principals = new WeakMap<Request, Principal>();
const scopes = new WeakMap<Request, Resolved>();

export const setPrincipal = (request: Request, p: Principal) => principals.set(request, p);
export const principalOf = (request: Request): Principal | undefined => principals.get(request);

const bug = (what: string) => new Error(`${what}: the route's access rule did not run (http/access.ts)`);

/** The user scope the route's rule resolved (a route whose rule is `user`). */
export function userScopeOf(request: Request): UserScope {
  const r = scopes.get(request);
  if (r?.kind !== "user") throw bug("no user scope");
  return r.scope;
}

/** The user a request acted on, when its route's rule resolved one (the audit log's target user). */
export function targetUserOf(request: Request): string | undefined {
  const r = scopes.get(request);
  return r?.kind === "user" ? r.scope.userId : undefined;
}

/** The organization scope the route's rule resolved. */
export function orgScopeOf(request: Request): OrgScope {
  const r = scopes.get(request);
  if (!r) throw bug("no scope");
  return r.kind === "org" ? r.scope : { org: r.scope.org, ...(r.scope.admin ? {} : { viewer: r.scope.userId }) };
}

type Routes = readonly { method: string; path: string; hooks?: { detail?: unknown } }[];

/** Installs the check on `app`: every matched route's rule, applied to the principal the pipeline resolved. */
export function installAccess(app: Elysia<any, any, any, any, any, any, any>, o: { homeOrg: string }) {
  let rules: Map<string, Access | undefined> | null = null;
  const ruleOf = (method: string, route: string) => {
    rules ??= new Map((app.routes as Routes).map((r) => [`${r.method} ${r.path}`, accessOf(r.hooks)]));
    return rules.get(`${method} ${route}`) ?? rules.get(`ALL ${route}`);
  };
  return app.onBeforeHandle(({ request, route, body, query }) => {
    const rule = ruleOf(request.method === "HEAD" ? "GET" : request.method, route);
    if (!rule) throw new AppError("FORBIDDEN", "this route has no access rule");
    const p = principals.get(request);
    if (!p) {
      if (rule.kind === "public") return;
      throw new AppError("UNAUTHORIZED", "missing or invalid API key; send Authorization: Bearer <key>");
    }
    scopes.set(request, authorize(rule, p, inputOf(body, query), o.homeOrg));
  });
}

/** user_id and agent_id as the request gives them: in the JSON body, else in the query string. */
function inputOf(body: unknown, query: unknown): { user_id?: unknown; agent_id?: unknown } {
  const b = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const q = query && typeof query === "object" ? (query as Record<string, unknown>) : {};
  return { user_id: b.user_id ?? q.user_id, agent_id: b.agent_id ?? q.agent_id };
}
