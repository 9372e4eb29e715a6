// Who is asking (SPEC §8), resolved once per request, and the scope a service acts in. Transports
// resolve a Principal (a key, a token, or the trusted local operator); the access rules turn it into
// a Scope; services and every repository query take the scope's organization (and user) as given.
import { validationError } from "./errors";

export const ROLES = ["admin", "member", "reader"] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (v: unknown): v is Role => typeof v === "string" && (ROLES as readonly string[]).includes(v);

export interface Principal {
  /** The organization everything this principal does stays in. */
  org: string;
  role: Role;
  /** A key bound to a user acts only as that user. */
  userId?: string;
  /** A key bound to an agent writes and reads only as that agent. */
  agentId?: string;
  /**
   * How it proved itself: auth off on loopback (the trusted operator), a shared MCP_API_KEY key, an identity
   * key (egk_…), or an OIDC token.
   */
  kind: "local" | "shared" | "key" | "token";
  /** What the audit log records as the principal: "local", "shared:<n>", the key id, or "oidc:<subject>". */
  id: string;
}

/** The trusted operator of a local store (auth off), and the shared keys: admins of the store's organization. */
export const operator = (org: string, kind: "local" | "shared" = "local", id = "local"): Principal => ({
  org,
  role: "admin",
  kind,
  id,
});

/** The scope of an organization-wide operation (governance, keys, records, audit). */
export interface OrgScope {
  org: string;
  /**
   * Who reads records that may belong to a user (immutable, mutable): undefined for an admin, who sees all;
   * otherwise only records of no user or of this user are visible.
   */
  viewer?: string;
}

/** The scope of an operation on one user's data. */
export interface UserScope {
  org: string;
  userId: string;
  /** Set when the key is bound to an agent: its reads and writes are confined to that agent. */
  agentId?: string;
  /** An admin of the organization: a member of every shared space, with write access. */
  admin: boolean;
  /** A reader: nothing it does may write (also in shared spaces). */
  readOnly: boolean;
}

/** A user of an organization as one string, for this process's maps (caches): org A's "alice" is not org B's. */
export const ownerKey = (o: { org: string; userId: string }): string => JSON.stringify([o.org, o.userId]);

/** The scope the operator (or an in-process SDK) acts in for a user. */
export const userScopeOf = (org: string, userId: string): UserScope => ({
  org,
  userId,
  admin: true,
  readOnly: false,
});

/**
 * The owner a shared space's memories are stored under (SPEC §8): a reserved user id, so every per-user
 * index, isolation path and cache serves a space as it serves a user. No client may name it as a user.
 */
export const SPACE_OWNER_PREFIX = "space:";
export const spaceOwnerId = (spaceId: string): string => `${SPACE_OWNER_PREFIX}${spaceId}`;
export const isSpaceOwnerId = (userId: string): boolean => userId.startsWith(SPACE_OWNER_PREFIX);
/** Every space owner's id as a half-open range ['space:', 'space;'), which a user index scans as one range. */
export const spaceOwnerRange: readonly [string, string] = ["space:", "space;"];
/** Refuses a space's owner id where a client names a user (400 VALIDATION_ERROR on `field`). */
export function refuseSpaceOwner(userId: string, field = "user_id"): void {
  if (isSpaceOwnerId(userId))
    throw validationError(field, `user ids starting with '${SPACE_OWNER_PREFIX}' are reserved for shared spaces`);
}
