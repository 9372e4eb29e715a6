// A user's erasure request (delete_all_memories with cascade): removes the user's data from
// every layer except what policy must keep (purgeOnUserRequest false, FINRA/HIPAA minimum
// retention), and logs the request for compliance reports.
import type { Repos } from "~/store/store";
import type { Clock } from "~/shared/clock";
import { newId } from "~/shared/ids";
import type { DeletionPolicy, Erasure } from "~/memory/memory-hooks";
import type { PolicyService } from "./policies";
import { canEraseOnUserRequest, minimumRetentionMs } from "./retention-rules";

type Counts = Record<string, number>;
type Count = (layer: string, kept: boolean) => void;

export class UserErasure implements Erasure, DeletionPolicy {
  constructor(
    private readonly policies: PolicyService,
    private readonly clock: Clock,
  ) {}

  keepSince(memorySpaceId: string, erasure: boolean): number | undefined {
    const { policy } = this.policies.forSpace(memorySpaceId);
    if (erasure && !policy.conversations.retention.purgeOnUserRequest) return -Infinity;
    const min = minimumRetentionMs(policy);
    return min > 0 ? this.clock.now() - min : undefined;
  }

  /** Runs inside the cascade's transaction `tx`, after the memories. */
  eraseUser(tx: Repos, userId: string, memories: { deleted: number; retained: number }): { retained: Counts } {
    const now = this.clock.now();
    const deleted: Counts = { vector: memories.deleted };
    const retained: Counts = {};
    const count: Count = (layer, kept) => {
      const counts = kept ? retained : deleted;
      counts[layer] = (counts[layer] ?? 0) + 1;
    };
    if (memories.retained) retained.vector = memories.retained;
    this.conversations(tx, userId, now, count);
    this.orgRecords(tx, userId, now, count);
    // Sessions hold no conversation content, so they go even where policy retains conversations.
    deleted.sessions = tx.sessions.deleteUser(userId);
    tx.governance.recordDeletionRequest({
      id: newId(),
      userId,
      requestedAt: now,
      fulfilledAt: this.clock.now(),
      deleted: JSON.stringify(deleted),
      retained: JSON.stringify(retained),
    });
    return { retained };
  }

  private conversations(tx: Repos, userId: string, now: number, count: Count): void {
    const policyOf = memo((space: string) => this.policies.forSpace(space).policy);
    const erase: string[] = [];
    for (const c of tx.conversations.ofUser(userId)) {
      const gone = canEraseOnUserRequest(policyOf(c.space), c.lastMessageAt, now, c.retainUntil);
      if (gone) erase.push(c.id);
      count("conversations", !gone);
    }
    tx.conversations.delete(erase);
  }

  /**
   * Immutable versions and mutable keys carry an optional user_id precisely so erasure can find them. A
   * record counts as retained when any of the user's versions in it must stay.
   */
  private orgRecords(tx: Repos, userId: string, now: number, count: Count): void {
    const policyOf = memo((org: string) => this.policies.forOrg(org).policy);
    const versions = tx.immutable.versionsOfUser(userId);
    const erase = versions.filter((v) => canEraseOnUserRequest(policyOf(v.org), v.createdAt, now, v.retainUntil));
    tx.immutable.eraseVersions(erase);
    const key = (v: { type: string; id: string }) => JSON.stringify([v.type, v.id]);
    const kept = new Set(versions.filter((v) => !erase.includes(v)).map(key));
    for (const record of new Set(versions.map(key))) count("immutable", kept.has(record));
    const keys = tx.mutable.ofUser(userId).filter((r) => {
      const gone = canEraseOnUserRequest(policyOf(r.org), r.updatedAt, now, r.retainUntil);
      count("mutable", !gone);
      return gone;
    });
    tx.mutable.delete(keys.map(({ key: [namespace, k] }) => ({ namespace, key: k })));
  }
}

function memo<T>(fn: (k: string) => T): (k: string) => T {
  const m = new Map<string, T>();
  return (k) => {
    if (!m.has(k)) m.set(k, fn(k));
    return m.get(k)!;
  };
}
