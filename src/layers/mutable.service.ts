// Mutable layer (SPEC §5.1): org-wide (namespace, key) → JSON value with updatedAt,
// accessedAt and an optional expiry (ttl duration or expiresAt); expired keys read as missing.
import type { MutableRow, Store } from "~/store/store";
import { orgWide } from "~/shared/store-scope";
import { type Clock, iso, isoOrNull } from "~/shared/clock";
import { AppError, notFound, validationError } from "~/shared/errors";
import type { OrgScope } from "~/shared/principal";
import type { RetentionFloor } from "~/memory/memory-hooks";
import { parseDuration } from "~/governance/durations";
import type { PutMutableInput, MutableResponse, MutableDeleteResponse } from "./layers.schema";

const MAX_VALUE_BYTES = 1024 * 1024;

export class MutableService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The minimum retention a key earns when written, and which its delete honours (SPEC §5.4). */
    private readonly floor: RetentionFloor,
  ) {}

  async put(scope: OrgScope, namespace: string, key: string, input: PutMutableInput): Promise<MutableResponse> {
    if (input.value === undefined) throw validationError("value", "value is required");
    if (input.ttl !== undefined && input.expiresAt !== undefined)
      throw validationError("ttl", "give ttl or expiresAt, not both");
    const now = this.clock.now();
    let expiresAt: number | null = input.expiresAt ?? null;
    if (input.ttl !== undefined) {
      const ms = parseDuration(input.ttl);
      if (ms === undefined || ms === 0) throw validationError("ttl", "ttl must be a duration like 30m, 24h, 7d or 1y");
      expiresAt = now + ms;
    }
    const value = JSON.stringify(input.value);
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES)
      throw validationError("value", `value must be at most ${MAX_VALUE_BYTES} bytes of JSON`);
    // Answered from the row written, not read back: an expiresAt already past is stored too (SPEC §5.1),
    // reads as missing from now on, and enforcement removes it.
    const retainUntil = (await this.floor.retainUntil(policyScope(scope), now)) ?? null;
    const entry = {
      orgId: scope.org,
      namespace,
      key,
      userId: input.user_id ?? null,
      value,
      expiresAt,
      now,
      retainUntil,
    };
    const row = await this.store.write((tx) => tx.mutable.put(entry), orgWide(scope.org));
    return { success: true as const, ...view(row, now) };
  }

  async get(scope: OrgScope, namespace: string, key: string): Promise<MutableResponse> {
    const now = this.clock.now();
    const row = await this.store.read((r) => r.mutable.get(scope.org, namespace, key, now), orgWide(scope.org));
    // A key of another user is missing for a member or reader key (SPEC §8).
    if (!row || (scope.viewer !== undefined && row.user_id !== null && row.user_id !== scope.viewer))
      throw notFound("key", `${namespace}/${key}`);
    await this.store.write((tx) => tx.mutable.touch(scope.org, namespace, key, now), orgWide(scope.org));
    return { success: true as const, ...view(row, now) };
  }

  async delete(scope: OrgScope, namespace: string, key: string): Promise<MutableDeleteResponse> {
    const now = this.clock.now();
    await this.store.write(async (tx) => {
      const row = await tx.mutable.get(scope.org, namespace, key, now);
      if (!row) throw notFound("key", `${namespace}/${key}`);
      const held = await this.floor.heldUntil(policyScope(scope), row.updated_at, row.retain_until, now, tx);
      if (held != null)
        throw new AppError("CONFLICT", `key '${namespace}/${key}' is under minimum retention until ${iso(held)}`);
      await tx.mutable.deleteLive(scope.org, namespace, key, now);
    }, orgWide(scope.org));
    return { success: true as const, deleted_count: 1 };
  }
}

/** The governance scope a key's retention comes from: its organization's policy. */
const policyScope = (scope: OrgScope) => ({ organizationId: scope.org });

function view(r: MutableRow, accessedAt: number) {
  return {
    namespace: r.namespace,
    key: r.key,
    value: JSON.parse(r.value),
    user_id: r.user_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    accessed_at: iso(accessedAt),
    expires_at: isoOrNull(r.expires_at),
  };
}
