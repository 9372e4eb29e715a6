// The access rules of SPEC §8, declared next to each HTTP route (route-spec.ts) and each MCP tool,
// and the one function that applies a rule to a principal: it answers the scope the operation runs
// in, or throws FORBIDDEN (role or binding) / VALIDATION_ERROR (no user to act for).
import { AppError, validationError } from "~/shared/errors";
import { refuseSpaceOwner, type OrgScope, type Principal, type UserScope } from "~/shared/principal";

export type Access =
  /** No authentication at all (health, the API page). */
  | { readonly kind: "public" }
  /** Any authenticated principal; the operations behind it apply rules of their own (the MCP transports). */
  | { readonly kind: "authenticated" }
  /** One user's data: an admin acts for any user of its organization, a member or reader only as its user. */
  | { readonly kind: "user"; readonly write: boolean }
  /** Organization-wide data every role may read; records of another user stay hidden from non-admins. */
  | { readonly kind: "org" }
  /** Administration of the organization: keys, policies, enforcement, audit, spaces. */
  | { readonly kind: "admin" }
  /** The server itself (its statistics): an admin of the store's own organization (ENGRAM_ORG_ID). */
  | { readonly kind: "operator" };

export const ACCESS = {
  public: { kind: "public" },
  authenticated: { kind: "authenticated" },
  userRead: { kind: "user", write: false },
  userWrite: { kind: "user", write: true },
  orgRead: { kind: "org" },
  admin: { kind: "admin" },
  operator: { kind: "operator" },
} as const satisfies Record<string, Access>;

/** What a rule resolves to: the scope the service is called with. */
export type Resolved = { kind: "org"; scope: OrgScope } | { kind: "user"; scope: UserScope };

export const forbidden = (message: string) => new AppError("FORBIDDEN", message);

/**
 * Applies `rule` to `p`. `input`: the request's user_id and agent_id (absent = the key's binding, if any).
 * `homeOrg`: the store's own organization (ENGRAM_ORG_ID).
 */
export function authorize(
  rule: Access,
  p: Principal,
  input: { user_id?: unknown; agent_id?: unknown },
  homeOrg: string,
): Resolved {
  switch (rule.kind) {
    case "public":
    case "authenticated":
      return { kind: "org", scope: { org: p.org, ...(p.role === "admin" ? {} : { viewer: p.userId }) } };
    case "org":
      return { kind: "org", scope: { org: p.org, ...(p.role === "admin" ? {} : { viewer: p.userId ?? "" }) } };
    case "admin":
      if (p.role !== "admin") throw forbidden("this operation needs an admin key of the organization");
      return { kind: "org", scope: { org: p.org } };
    case "operator":
      if (p.role !== "admin" || p.org !== homeOrg)
        throw forbidden("server statistics need an admin key of the server's own organization");
      return { kind: "org", scope: { org: p.org } };
    case "user":
      return { kind: "user", scope: userScope(p, rule.write, input) };
  }
}

/** The user (and agent) a principal acts as on one user's data. */
export function userScope(p: Principal, write: boolean, input: { user_id?: unknown; agent_id?: unknown }): UserScope {
  if (write && p.role === "reader") throw forbidden("this key is read-only (role reader)");
  const named = typeof input.user_id === "string" ? input.user_id : undefined;
  if (p.userId !== undefined && named !== undefined && named !== p.userId)
    throw forbidden(`this key acts only as user '${p.userId}'`);
  const userId = named ?? p.userId;
  if (userId === undefined) throw validationError("user_id", "user_id is required");
  // A space's memories live under a reserved owner; only the space routes and parameters reach them.
  refuseSpaceOwner(userId);
  const agent = typeof input.agent_id === "string" ? input.agent_id : undefined;
  if (p.agentId !== undefined && agent !== undefined && agent !== p.agentId)
    throw forbidden(`this key acts only as agent '${p.agentId}'`);
  return {
    org: p.org,
    userId,
    ...(p.agentId !== undefined ? { agentId: p.agentId } : {}),
    admin: p.role === "admin",
    readOnly: p.role === "reader",
  };
}
