// Identity keys (SPEC §8): create (the secret shown once, only its digest stored), list, revoke, and
// authenticate a presented key on every request. Authentication sees the key's row as the store has it
// now (see keyRow), so a revocation by any process sharing the store applies at the next request.
import type { KeyRow, Repos, Store } from "~/store/store";
import type { DeferredBatch, DeferredWrites } from "~/shared/deferred-writes";
import { EVERY_ROW, orgWide } from "~/shared/store-scope";
import { type Clock, iso, isoOrNull } from "~/shared/clock";
import { notFound, validationError } from "~/shared/errors";
import type { Logger } from "~/shared/logger";
import { isRole, refuseSpaceOwner, type Principal } from "~/shared/principal";
import { parseDuration } from "~/governance/durations";
import { andThen, type MaybePromise } from "~/shared/maybe-async";
import { digestOf, newKey, parseKey, sameSecret, secretMatches } from "./key-format";
import type { CreateKeyInput, CreateKeyResponse, KeyListResponse, KeyView, RevokeKeyResponse } from "./keys.schema";

/** Key rows kept at most (a cache of presented keys, not of every key). */
const MAX_CACHED = 10_000;

export type KeyCheck =
  | { ok: true; principal: Principal }
  | { ok: false; reason: "malformed" | "unknown" | "revoked" | "expired" };
const refused = (reason: "malformed" | "unknown" | "revoked" | "expired") => ({ ok: false, reason }) as const;
const MALFORMED = refused("malformed");
const UNKNOWN = refused("unknown");
const REVOKED = refused("revoked");
const EXPIRED = refused("expired");

export class KeysService {
  private uses = new Map<string, number>();
  /** Key rows read while the store's externalVersion was `version` (see keyRow). */
  private rows = new Map<string, { row: KeyRow; version: number }>();
  /** Per key id, a secret that matched the stored digest `hash` (see secretOk). */
  private verified = new Map<string, { secret: string; hash: Uint8Array }>();
  /** The principal of each key row seen, shared by its requests (frozen: nothing may change it). */
  private principals = new WeakMap<KeyRow, Principal>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The shared periodic commit the last uses of keys are written in (with the audit log's rows). */
    private readonly writes: DeferredWrites<Repos>,
  ) {
    writes.add(() => this.unwritten());
  }

  /** A key of `org`, any organization (SPEC §8: the operator's CLI names it; an admin's route, its own). */
  async create(org: string, input: CreateKeyInput): Promise<CreateKeyResponse> {
    if (!org.trim() || org.length > 256) throw validationError("org", "org must be 1–256 characters");
    if (!isRole(input.role)) throw validationError("role", "role must be one of admin, member, reader");
    if (input.role !== "admin" && input.user_id === undefined)
      throw validationError("user_id", `a ${input.role} key acts as one user: give user_id`);
    if (input.user_id !== undefined) refuseSpaceOwner(input.user_id);
    const now = this.clock.now();
    let expiresAt: number | null = null;
    if (input.expires !== undefined) {
      const ms = parseDuration(input.expires);
      if (!ms) throw validationError("expires", "expires must be a duration like 30m, 24h, 90d or 1y");
      expiresAt = now + ms;
    }
    const { id, key, secret } = newKey();
    const row = {
      id,
      org_id: org,
      role: input.role,
      user_id: input.user_id ?? null,
      agent_id: input.agent_id ?? null,
      name: input.name ?? null,
      secret_hash: digestOf(id, secret),
      created_at: now,
      expires_at: expiresAt,
    };
    await this.store.write((tx) => tx.keys.insert(row), orgWide(org));
    const { last_used_at: _, revoked_at: __, ...view } = toView({ ...row, last_used_at: null, revoked_at: null });
    return { success: true as const, ...view, key };
  }

  /** The organization's keys; without an organization, every key of the store (the operator's CLI). */
  async list(org?: string): Promise<KeyListResponse> {
    await this.flush();
    const rows = await this.store.read(
      (r) => (org === undefined ? r.keys.all() : r.keys.list(org)),
      org === undefined ? EVERY_ROW : orgWide(org),
    );
    return { success: true as const, keys: rows.map(toView) };
  }

  /** The organization of a key, in any organization (the operator's CLI revokes by id alone). */
  async orgOf(id: string): Promise<string | null> {
    return (await this.store.read((r) => r.keys.byId(id), EVERY_ROW))?.org_id ?? null;
  }

  async revoke(org: string, id: string): Promise<RevokeKeyResponse> {
    const now = this.clock.now();
    const revoked = await this.store.write((tx) => tx.keys.revoke(org, id, now), orgWide(org));
    this.rows.clear(); // after the write: a row cached while it ran is dropped too
    if (!revoked) throw notFound("key", id);
    return { success: true as const, id, revoked_at: iso(now) };
  }

  /**
   * The principal of a presented identity key, or why it does not authenticate: at once when the key's
   * row is cached (nearly every request), else after reading it.
   */
  authenticate(token: string): MaybePromise<KeyCheck> {
    const parsed = parseKey(token);
    if (!parsed) return MALFORMED;
    return andThen(this.keyRow(parsed.id), (row) => this.check(parsed.id, parsed.secret, row));
  }

  private check(id: string, secret: string, row: KeyRow | null): KeyCheck {
    if (!row || !this.secretOk(id, secret, row.secret_hash)) return UNKNOWN;
    if (row.revoked_at !== null) return REVOKED;
    const now = this.clock.now();
    if (row.expires_at !== null && row.expires_at <= now) return EXPIRED;
    this.noteUse(row.id, now);
    let principal = this.principals.get(row);
    if (!principal) this.principals.set(row, (principal = Object.freeze(principalOf(row))));
    return { ok: true, principal };
  }

  /**
   * Whether `secret` is the key's: its digest is computed once per key, and while the stored digest stays
   * the same a later presentation is compared with the secret that matched it, in constant time (equal
   * to it, or the digest would differ). SHA-256 per request was a fifth of what auth cost a get.
   */
  private secretOk(id: string, secret: string, stored: Uint8Array): boolean {
    const known = this.verified.get(id);
    if (known && sameBytes(known.hash, stored)) return sameSecret(known.secret, secret);
    if (!secretMatches(id, secret, stored)) return false;
    if (this.verified.size >= MAX_CACHED) this.verified.clear();
    this.verified.set(id, { secret, hash: stored });
    return true;
  }

  /**
   * The key's row. Where the store's externalVersion is exact (SQLite: it changes at once when another
   * process commits), a row read earlier serves until it changes or this process revokes a key, so a
   * revocation anywhere still applies at the next request; elsewhere (PostgreSQL, whose notifications
   * arrive after the commit) every request reads the row. The read per request cost a store turn each:
   * with a key on every request, get fell by a third (3k memories).
   */
  private keyRow(id: string): MaybePromise<KeyRow | null> {
    if (this.store.userChangeVersion) return this.store.read((r) => r.keys.byId(id), EVERY_ROW);
    const version = this.store.externalVersion();
    const cached = this.rows.get(id);
    if (cached && cached.version === version) return cached.row;
    return this.store
      .read((r) => r.keys.byId(id), EVERY_ROW)
      .then((row) => {
        if (this.rows.size >= MAX_CACHED) this.rows.clear();
        if (row && this.store.externalVersion() === version) this.rows.set(id, { row, version });
        return row;
      });
  }

  /** Keys that could authenticate now, in any organization (start-up: can anyone log in?). */
  usableCount(): Promise<number> {
    return this.store.read((r) => r.keys.usable(this.clock.now()), EVERY_ROW);
  }

  private noteUse(id: string, at: number): void {
    this.uses.set(id, at);
    this.writes.soon();
  }

  /** Writes the last uses noted so far (with the rest of the shared commit). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** The last uses noted since the last commit, as its part of the shared one. */
  private unwritten(): DeferredBatch<Repos> | null {
    if (!this.uses.size) return null;
    const uses = [...this.uses].map(([id, at]) => ({ id, at }));
    this.uses.clear();
    return {
      write: (tx) => tx.keys.touch(uses),
      failed: (e) =>
        this.logger.warn("could not record the last use of keys", { keys: uses.length, error: (e as Error).message }),
    };
  }
}

/** Stored digests compared (not secret: the store's own bytes, to tell a row whose digest changed). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function principalOf(row: KeyRow): Principal {
  return {
    org: row.org_id,
    role: isRole(row.role) ? row.role : "reader",
    ...(row.user_id !== null ? { userId: row.user_id } : {}),
    ...(row.agent_id !== null ? { agentId: row.agent_id } : {}),
    kind: "key",
    id: row.id,
  };
}

function toView(row: Omit<KeyRow, "secret_hash"> & { secret_hash?: unknown }): KeyView {
  return {
    id: row.id,
    org: row.org_id,
    role: isRole(row.role) ? row.role : "reader",
    user_id: row.user_id,
    agent_id: row.agent_id,
    name: row.name,
    created_at: iso(row.created_at),
    expires_at: isoOrNull(row.expires_at),
    last_used_at: isoOrNull(row.last_used_at),
    revoked_at: isoOrNull(row.revoked_at),
  };
}
