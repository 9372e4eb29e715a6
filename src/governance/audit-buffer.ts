// The audit calls waiting for the next flush, held compactly: each call's values in one flat array and its
// strings shared, so what waits up to FLUSH_MS is no object per request and no string but each id's first
// (held that long they outlive the young generation, and only a full collection frees them). Rows are made
// at the flush.
import type { AuditRow } from "~/store/store";
import type { AuditCall } from "./audit";

/** Values a call takes in the buffer, in this order. */
const SLOTS = 10;

/** A call's organization, or the policy lookup that tells it (null: not logged). */
export type AuditOrg = string | Promise<string | null>;

export class AuditBuffer {
  private values: unknown[] = [];
  /**
   * One copy of each method, user id and memory-space id held: emptied with the buffer, so it holds no id
   * longer than the calls it was shared by (an erased user's among them).
   */
  private readonly pool = new Map<string, string>();

  /** Calls held. */
  get size(): number {
    return this.values.length / SLOTS;
  }

  /** Holds `call`, made at `at`, of `org`; the principal, route and duration only when it was authenticated. */
  push(call: AuditCall, at: number, org: AuditOrg): void {
    const p = call.principal;
    // A path without parameters is its route's template, which every such request shares; one with them
    // (an id) is seldom seen twice, so it is not pooled.
    const path = call.path === call.route ? call.route : call.path;
    this.values.push(at, org, this.sharedOrNull(call.memorySpaceId), this.sharedOrNull(call.userId));
    this.values.push(this.shared(call.method), path, call.status);
    this.values.push(p ? p.id : null, p ? (call.route ?? null) : null, p ? (call.durationMs ?? null) : null);
  }

  /** The rows of the calls held, in call order, without those their policy does not log; empties the buffer. */
  async take(): Promise<AuditRow[]> {
    const v = this.values;
    this.values = [];
    this.pool.clear();
    const rows: AuditRow[] = [];
    for (let i = 0; i < v.length; i += SLOTS) {
      const org = typeof v[i + 1] === "string" ? (v[i + 1] as string) : await (v[i + 1] as Promise<string | null>);
      if (org === null) continue;
      rows.push({
        at: v[i] as number,
        organization_id: org,
        memory_space_id: v[i + 2] as string | null,
        user_id: v[i + 3] as string | null,
        method: v[i + 4] as string,
        path: v[i + 5] as string,
        status: v[i + 6] as number,
        principal: v[i + 7] as string | null,
        route: v[i + 8] as string | null,
        duration_ms: v[i + 9] as number | null,
      });
    }
    return rows;
  }

  private sharedOrNull(s: string | undefined): string | null {
    return s === undefined ? null : this.shared(s);
  }

  private shared(s: string): string {
    const kept = this.pool.get(s);
    if (kept !== undefined) return kept;
    this.pool.set(s, s);
    return s;
  }
}
