// Identity keys (SPEC §8): one row per key, the secret only as a digest. Every read a client asks for
// is scoped by organization; `byId` serves authentication, which learns the organization from the row.

export interface KeyRow {
  id: string;
  org_id: string;
  role: string;
  user_id: string | null;
  agent_id: string | null;
  name: string | null;
  secret_hash: Uint8Array;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export type NewKey = Omit<KeyRow, "last_used_at" | "revoked_at">;

export interface KeyRepo {
  insert(k: NewKey): Promise<void>;
  /** The key with this id, in any organization (authentication), or null. */
  byId(id: string): Promise<KeyRow | null>;
  /** The organization's keys, newest first. */
  list(orgId: string): Promise<KeyRow[]>;
  /** Every organization's keys, by organization then newest first (the operator's `engram keys list`). */
  all(): Promise<KeyRow[]>;
  /** Revokes a key of the organization; false when it has no such key (or it was revoked already). */
  revoke(orgId: string, id: string, now: number): Promise<boolean>;
  /** Records when keys were last used (a batch, written after the requests). */
  touch(uses: { id: string; at: number }[]): Promise<void>;
  /** Keys that could authenticate now (not revoked, not expired), across organizations. */
  usable(now: number): Promise<number>;
}
