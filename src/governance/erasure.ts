// A user's erasure request (delete_all_memories with cascade): removes the user's data from
// every layer except what policy must keep (purgeOnUserRequest false, FINRA/HIPAA minimum
// retention), and logs the request for compliance reports.
import type { Db } from "~/store/sqlite";
import type { GovernanceRepo } from "~/store/governance-repo";
import type { Clock } from "~/shared/clock";
import { newId } from "~/shared/ids";
import type { DeletionPolicy, Erasure } from "~/memory/memory-hooks";
import type { PolicyService } from "./policies";

import { canEraseOnUserRequest, minimumRetentionMs } from "./retention-rules";

/** Sessions hold no conversation content, so they go even where policy retains conversations. */
export interface SessionEraser {
  deleteUser(userId: string): number;
}

type Counts = Record<string, number>;

export class UserErasure implements Erasure, DeletionPolicy {
  constructor(
    private readonly db: Db,
    private readonly gov: GovernanceRepo,
    private readonly policies: PolicyService,
    private readonly clock: Clock,
    private readonly sessions?: () => SessionEraser,
  ) {}

  keepSince(memorySpaceId: string, erasure: boolean): number | undefined {
    const { policy } = this.policies.forSpace(memorySpaceId);
    if (erasure && !policy.conversations.retention.purgeOnUserRequest) return -Infinity;
    const min = minimumRetentionMs(policy);
    return min > 0 ? this.clock.now() - min : undefined;
  }

  eraseUser(userId: string, memories: { deleted: number; retained: number }): { retained: Counts } {
    const now = this.clock.now();
    const deleted: Counts = { vector: memories.deleted };
    const retained: Counts = {};
    const count = (layer: string, kept: boolean) =>
      ((kept ? retained : deleted)[layer] = ((kept ? retained : deleted)[layer] ?? 0) + 1);
    if (memories.retained) retained.vector = memories.retained;
    this.conversations(userId, now, count);
    this.orgRecords(userId, now, count);
    if (this.sessions) deleted.sessions = this.sessions().deleteUser(userId);
    this.gov.recordDeletionRequest({
      id: newId(),
      userId,
      requestedAt: now,
      fulfilledAt: this.clock.now(),
      deleted: JSON.stringify(deleted),
      retained: JSON.stringify(retained),
    });
    return { retained };
  }

  private conversations(userId: string, now: number, count: (layer: string, kept: boolean) => void): void {
    const rows = this.db
      .query<{ id: string; space: string; t: number }, [string]>(
        "SELECT id, memory_space_id AS space, last_message_at AS t FROM conversations WHERE user_id = ?",
      )
      .all(userId);
    const policyOf = memo((space: string) => this.policies.forSpace(space).policy);
    const del = this.db.query("DELETE FROM conversations WHERE id = ?");
    for (const r of rows) {
      const erase = canEraseOnUserRequest(policyOf(r.space), r.t, now);
      if (erase) del.run(r.id);
      count("conversations", !erase);
    }
  }

  /** Immutable and mutable records carry an optional user_id precisely so erasure can find them. */
  private orgRecords(userId: string, now: number, count: (layer: string, kept: boolean) => void): void {
    const policyOf = memo((org: string) => this.policies.forOrg(org).policy);
    const layers = [
      {
        layer: "immutable",
        select:
          "SELECT type AS a, id AS b, organization_id AS org, updated_at AS t FROM immutable_records WHERE user_id = ?",
        del: "DELETE FROM immutable_records WHERE type = ? AND id = ?",
      },
      {
        layer: "mutable",
        select:
          "SELECT namespace AS a, key AS b, organization_id AS org, updated_at AS t FROM mutable_entries WHERE user_id = ?",
        del: "DELETE FROM mutable_entries WHERE namespace = ? AND key = ?",
      },
    ];
    for (const { layer, select, del } of layers) {
      const remove = this.db.query(del);
      for (const r of this.db.query<{ a: string; b: string; org: string; t: number }, [string]>(select).all(userId)) {
        const erase = canEraseOnUserRequest(policyOf(r.org), r.t, now);
        if (erase) remove.run(r.a, r.b);
        count(layer, !erase);
      }
    }
  }
}

function memo<T>(fn: (k: string) => T): (k: string) => T {
  const m = new Map<string, T>();
  return (k) => {
    if (!m.has(k)) m.set(k, fn(k));
    return m.get(k)!;
  };
}
