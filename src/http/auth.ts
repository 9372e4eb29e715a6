// Who sent a request (SPEC §8), resolved once: with auth off the trusted local operator; with auth on
// the bearer token — a shared MCP_API_KEY key (an admin of the store's organization), an identity key
// (egk_…), or an OIDC token when an issuer is configured. Anything else is a 401, never a 500.
import { timingSafeEqual } from "node:crypto";
import { AppError } from "~/shared/errors";
import { operator, type Principal } from "~/shared/principal";
import type { KeyCheck } from "~/identity/keys.service";
import { looksLikeKey } from "~/identity/key-format";
import { andThen, type MaybePromise } from "~/shared/maybe-async";

/** Longer bearer tokens are refused unread (an OIDC token is a few KB at most). */
export const MAX_TOKEN_CHARS = 8192;

export interface AuthOptions {
  enabled: boolean;
  /** Shared keys (MCP_API_KEY). */
  apiKeys: string[];
  /** The store's own organization (ENGRAM_ORG_ID): the operator's and the shared keys'. */
  homeOrg: string;
  keys: { authenticate(token: string): MaybePromise<KeyCheck> };
  /** An OIDC verifier when an issuer is configured (identity/oidc.ts). */
  tokens?: { looksLikeToken(token: string): boolean; verify(token: string): Promise<Principal> };
}

export type Authentication = MaybePromise<Principal | AppError>;

const digest = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest();
const unauthorized = (message: string) => new AppError("UNAUTHORIZED", message);
const REASONS = {
  malformed: "malformed API key",
  unknown: "invalid API key",
  revoked: "this API key was revoked",
  expired: "this API key has expired",
} as const;

/** `authenticate(authorization header)`: the principal, or the 401 to answer (a promise when the store or the issuer is asked). */
export function makeAuthenticator(o: AuthOptions): (header: string | null) => Authentication {
  const local = operator(o.homeOrg);
  const shared = makeSharedKeyCheck(o.apiKeys);
  return (header) => {
    if (!o.enabled) return local;
    const m = header ? /^Bearer[ \t]+(\S.*)$/i.exec(header.trim()) : null;
    if (!m) return unauthorized("missing or invalid API key; send Authorization: Bearer <key>");
    const token = m[1]!.trim();
    if (token.length > MAX_TOKEN_CHARS) return unauthorized(`bearer token longer than ${MAX_TOKEN_CHARS} characters`);
    if (looksLikeKey(token))
      return andThen(o.keys.authenticate(token), (r) => (r.ok ? r.principal : unauthorized(REASONS[r.reason])));
    if (o.tokens?.looksLikeToken(token))
      return o.tokens.verify(token).catch((e: unknown) => (e instanceof AppError ? e : unauthorized("invalid token")));
    const n = shared(token);
    return n > 0 ? operator(o.homeOrg, "shared", `shared:${n}`) : unauthorized("invalid API key");
  };
}

/** 1-based position of the matching shared key, 0 for none; every key is compared, in constant time. */
function makeSharedKeyCheck(keys: string[]): (token: string) => number {
  const digests = keys.map(digest);
  return (token) => {
    const presented = digest(token);
    let found = 0;
    // No early exit: timing does not reveal which key matched, or how many there are before it.
    for (let i = 0; i < digests.length; i++) if (timingSafeEqual(digests[i]!, presented) && !found) found = i + 1;
    return found;
  };
}
