// SSO (SPEC §8): an OIDC access or ID token (a JWT) as a bearer token, verified against the issuer's
// keys found by discovery (signature, iss, aud, exp, nbf) and mapped to organization, user and role
// by configurable claims. The one home of `jose` (DESIGN §3).
import type { createRemoteJWKSet, JWTPayload } from "jose";
import { AppError } from "~/shared/errors";
import type { Principal, Role } from "~/shared/principal";

export interface OidcSettings {
  issuer: string;
  audience: string[];
  orgClaim: string;
  userClaim: string;
  roleClaim: string;
  /** Organization of a token without the org claim; unset: such a token is refused. */
  org?: string;
  /** Role of a token whose role claim names none of admin, member, reader; unset: such a token is refused. */
  defaultRole?: Role;
  clockSkewSeconds: number;
}

export interface OidcOptions {
  /** Longest wait for the issuer's discovery document or keys. */
  timeoutMs?: number;
  /** Shortest time between two fetches of the keys for an unknown key id (a rotation). */
  jwksCooldownMs?: number;
  /** Shortest time between two discovery attempts after one failed. */
  retryMs?: number;
  now?: () => number;
}

/** Asymmetric signatures only: an HMAC key would be a secret the issuer publishes, and `none` is no signature. */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

const unauthorized = (message: string) => new AppError("UNAUTHORIZED", message);

/** jose is loaded at the first token, not with every server (most never configure an issuer). */
let jose: Promise<typeof import("jose")> | null = null;
const loadJose = () => (jose ??= import("jose"));

export class OidcVerifier {
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  private discovering: Promise<ReturnType<typeof createRemoteJWKSet>> | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;
  private lastFailure = "";
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    readonly settings: OidcSettings,
    private readonly options: OidcOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  /** A compact JWS: three base64url parts, a JSON header first. Anything else is not ours to verify. */
  looksLikeToken(token: string): boolean {
    return JWT_SHAPE.test(token);
  }

  /** The principal the token names; AppError UNAUTHORIZED for a bad token, UNAVAILABLE when the issuer cannot be asked. */
  async verify(token: string): Promise<Principal> {
    const { jwtVerify, errors } = await loadJose();
    const jwks = await this.keys();
    const s = this.settings;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: s.issuer,
        audience: s.audience,
        clockTolerance: s.clockSkewSeconds,
        algorithms: ALGORITHMS,
        requiredClaims: ["exp"],
      }));
    } catch (e) {
      throw this.refusal(e, errors);
    }
    return this.principalOf(payload);
  }

  /** Claims → principal (SPEC §8): organization, user and role by the configured claim names. */
  principalOf(claims: JWTPayload): Principal {
    const s = this.settings;
    const org = claimText(claims, s.orgClaim) ?? s.org;
    if (org === undefined) throw unauthorized(`token has no '${s.orgClaim}' claim naming an organization`);
    const user = claimText(claims, s.userClaim);
    if (user === undefined) throw unauthorized(`token has no '${s.userClaim}' claim naming a user`);
    const role = roleOf(claimAt(claims, s.roleClaim)) ?? s.defaultRole;
    if (role === undefined)
      throw new AppError("FORBIDDEN", `token's '${s.roleClaim}' claim names no role (admin, member or reader)`);
    // An admin acts for any user of its organization, like an unbound admin key; others only as themselves.
    return { org, role, ...(role === "admin" ? {} : { userId: user }), kind: "token", id: `oidc:${user}` };
  }

  /** The issuer's key set, found once by discovery; a failed discovery is retried, not before `retryMs`. */
  private keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.jwks) return Promise.resolve(this.jwks);
    if (this.discovering) return this.discovering;
    if (this.now() - this.failedAt < (this.options.retryMs ?? 5000))
      return Promise.reject(new AppError("UNAVAILABLE", this.lastFailure));
    this.discovering = this.discover()
      .then((jwks) => (this.jwks = jwks))
      .catch((e: unknown) => {
        this.failedAt = this.now();
        this.lastFailure = `cannot verify the token: the OIDC issuer ${this.settings.issuer} ${(e as Error).message}`;
        throw new AppError("UNAVAILABLE", this.lastFailure);
      })
      .finally(() => (this.discovering = null));
    return this.discovering;
  }

  private async discover(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const url = `${this.settings.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "error" });
      if (!res.ok) throw new Error(`answered ${res.status} at ${url}`);
      doc = (await res.json()) as typeof doc;
    } catch (e) {
      const err = e as Error;
      if (err.name === "TimeoutError") throw new Error(`did not answer within ${this.timeoutMs} ms`);
      throw new Error(err.message.startsWith("answered") ? err.message : `is unreachable (${err.message})`);
    }
    // OpenID Connect Discovery §4.3: the document must name the very issuer it was fetched for.
    if (doc?.issuer !== this.settings.issuer) throw new Error(`names another issuer (${String(doc?.issuer)})`);
    if (typeof doc.jwks_uri !== "string") throw new Error("publishes no jwks_uri");
    const { createRemoteJWKSet } = await loadJose();
    return createRemoteJWKSet(new URL(doc.jwks_uri), {
      timeoutDuration: this.timeoutMs,
      cooldownDuration: this.options.jwksCooldownMs ?? 30_000,
    });
  }

  /** jose's errors → what the client is told; only an unreachable key set is the server's problem. */
  private refusal(e: unknown, errors: typeof import("jose").errors): AppError {
    if (e instanceof AppError) return e;
    if (e instanceof errors.JWKSTimeout)
      return new AppError("UNAVAILABLE", `cannot verify the token: the OIDC issuer's keys did not answer in time`);
    if (e instanceof errors.JWTExpired) return unauthorized("token has expired");
    if (e instanceof errors.JWTClaimValidationFailed) return unauthorized(`token refused: ${e.message}`);
    if (e instanceof errors.JOSEAlgNotAllowed) return unauthorized("token's signature algorithm is not accepted");
    if (e instanceof errors.JWKSNoMatchingKey)
      return unauthorized("token is signed with a key the issuer does not publish");
    if (e instanceof errors.JWSSignatureVerificationFailed) return unauthorized("token's signature does not verify");
    // The key set itself could not be had (not a 200, not a key set): the issuer's fault, not the token's.
    if (e instanceof errors.JWKSInvalid || (e instanceof errors.JOSEError && e.constructor === errors.JOSEError))
      return new AppError("UNAVAILABLE", `cannot verify the token: the OIDC issuer's keys are unusable (${e.message})`);
    if (e instanceof errors.JOSEError) return unauthorized("malformed token");
    return new AppError(
      "UNAVAILABLE",
      `cannot verify the token: the OIDC issuer's keys are unreachable (${(e as Error).message})`,
    );
  }
}

/** A claim by name, or by a dotted path into nested claims (Keycloak's realm_access.roles). */
function claimAt(claims: JWTPayload, name: string): unknown {
  if (name in claims) return claims[name];
  let v: unknown = claims;
  for (const part of name.split("."))
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function claimText(claims: JWTPayload, name: string): string | undefined {
  const v = claimAt(claims, name);
  return typeof v === "string" && v.length > 0 && v.length <= 256 ? v : undefined;
}

/** The strongest Engram role among the claim's values (a string, space-separated names, or an array). */
function roleOf(v: unknown): Role | undefined {
  const names = typeof v === "string" ? v.split(/\s+/) : Array.isArray(v) ? v : [];
  for (const r of ["admin", "member", "reader"] as const) if (names.includes(r)) return r;
  return undefined;
}
