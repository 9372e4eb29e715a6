// A user's erasure request (delete_all_memories with cascade): removes the user's data from
// every layer except what policy must keep (purgeOnUserRequest false, FINRA/HIPAA minimum
// retention), and logs the request for compliance reports.
import type { Repos, UserRecord, Owner } from "~/store/store";
import type { Clock } from "~/shared/clock";
import { newId } from "~/shared/ids";
import type { DeletionPolicy, Erasure } from "~/memory/memory-hooks";
import type { PolicyService } from "./policies";
import { canEraseOnUserRequest, minimumRetentionMs } from "./retention-rules";
import { pseudonymOf } from "./pseudonym";

type Counts = Record<string, number>;
type Count = (layer: string, kept: boolean) => void;

/** The audit log, as an erasure tells it who is erased (governance/audit.ts). */
export interface ErasedUsers {
  /** Inside the erasure's transaction: the pseudonym that now names the user in calls not written yet. */
  forget(owner: Owner, pseudonym: string): void;
  /** After its commit: entries committed beside it under the user's id get the pseudonym. */
  renameLate(owner: Owner): Promise<void>;
}

export class UserErasure implements Erasure, DeletionPolicy {
  constructor(
    private readonly policies: PolicyService,
    private readonly clock: Clock,
    /** The audit log: told the pseudonym in the erasure's transaction, and asked to rename again after it. */
    private readonly log: ErasedUsers,
  ) {}

  async keepSince(
    space: { org: string; memorySpaceId: string },
    erasure: boolean,
    tx: Repos,
  ): Promise<number | undefined> {
    const { policy } = await this.policies.forSpace(space.org, space.memorySpaceId, tx);
    if (erasure && !policy.conversations.retention.purgeOnUserRequest) return -Infinity;
    const min = minimumRetentionMs(policy);
    return min > 0 ? this.clock.now() - min : undefined;
  }

  /** Runs inside the cascade's transaction `tx`, after the memories. */
  async eraseUser(
    tx: Repos,
    owner: Owner,
    memories: { deleted: number; retained: number },
  ): Promise<{ retained: Counts; renamedIn: Owner[] }> {
    const userId = owner.userId;
    const now = this.clock.now();
    const deleted: Counts = { vector: memories.deleted };
    const retained: Counts = {};
    const count: Count = (layer, kept) => {
      const counts = kept ? retained : deleted;
      counts[layer] = (counts[layer] ?? 0) + 1;
    };
    if (memories.retained) retained.vector = memories.retained;
    await this.conversations(tx, owner, now, count);
    await this.orgRecords(tx, owner, now, count);
    // Sessions hold no conversation content, so they go even where policy retains conversations.
    deleted.sessions = await tx.sessions.deleteUser(owner);
    // The logs that outlive the erasure keep the request and the calls, under a pseudonym instead of the id.
    const pseudonym = pseudonymOf(await tx.governance.pseudonymKey(), owner);
    await tx.governance.pseudonymize(owner, pseudonym);
    // What the user wrote into shared spaces stays (it is the space's, under the space's policy); the
    // writer it names is personal data, so it is named by the pseudonym from now on, as in the logs.
    const renamed = await tx.spaces.renameWriter(owner.org, userId, pseudonym);
    this.log.forget(owner, pseudonym);
    await tx.governance.recordDeletionRequest({
      id: newId(),
      org: owner.org,
      userId: pseudonym,
      requestedAt: now,
      fulfilledAt: this.clock.now(),
      deleted: JSON.stringify(deleted),
      retained: JSON.stringify(retained),
    });
    return { retained, renamedIn: renamed.map((u) => ({ org: owner.org, userId: u })) };
  }

  committed(owner: Owner): Promise<void> {
    return this.log.renameLate(owner);
  }

  private async conversations(tx: Repos, owner: Owner, now: number, count: Count): Promise<void> {
    const policyOf = memo(async (space: string) => (await this.policies.forSpace(owner.org, space, tx)).policy);
    const erase: string[] = [];
    for (const c of await tx.conversations.ofUser(owner)) {
      const gone = canEraseOnUserRequest(await policyOf(c.space), c.lastMessageAt, now, c.retainUntil);
      if (gone) erase.push(c.id);
      count("conversations", !gone);
    }
    await tx.conversations.delete(erase);
  }

  /**
   * Immutable versions and mutable keys carry an optional user_id precisely so erasure can find them. A
   * record counts as retained when any of the user's versions in it must stay.
   */
  private async orgRecords(tx: Repos, owner: Owner, now: number, count: Count): Promise<void> {
    const policyOf = memo(async (org: string) => (await this.policies.forOrg(org, tx)).policy);
    const versions = await tx.immutable.versionsOfUser(owner);
    const erase: typeof versions = [];
    for (const v of versions)
      if (canEraseOnUserRequest(await policyOf(v.org), v.createdAt, now, v.retainUntil)) erase.push(v);
    await tx.immutable.eraseVersions(owner.org, erase);
    const key = (v: { type: string; id: string }) => JSON.stringify([v.type, v.id]);
    const kept = new Set(versions.filter((v) => !erase.includes(v)).map(key));
    for (const record of new Set(versions.map(key))) count("immutable", kept.has(record));
    const keys: UserRecord[] = [];
    for (const r of await tx.mutable.ofUser(owner)) {
      const gone = canEraseOnUserRequest(await policyOf(r.org), r.updatedAt, now, r.retainUntil);
      count("mutable", !gone);
      if (gone) keys.push(r);
    }
    await tx.mutable.delete(
      owner.org,
      keys.map(({ key: [namespace, k] }) => ({ namespace, key: k })),
    );
  }
}

function memo<T>(fn: (k: string) => T): (k: string) => T {
  const m = new Map<string, T>();
  return (k) => {
    if (!m.has(k)) m.set(k, fn(k));
    return m.get(k)!;
  };
}
