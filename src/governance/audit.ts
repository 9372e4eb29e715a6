// The audit log of SPEC §5.5 and §8: every request authenticated by a key or token is recorded (reads
// included); with auth off (the local operator), every API call when the organization's policy has
// compliance.auditLogging. Rows are buffered and written with the other request bookkeeping in the shared
// periodic commit (shared/deferred-writes.ts), so auditing costs the request path a push onto an array, not
// a disk write; the policy check runs meanwhile, and rows keep the order of the calls.
import type { AuditRow, Repos, Store } from "~/store/store";
import { EVERY_ROW, orgWide } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import type { Logger } from "~/shared/logger";
import { ownerKey, type Principal } from "~/shared/principal";
import type { Owner } from "~/store/store";
import type { DeferredBatch, DeferredWrites } from "~/shared/deferred-writes";
import { GovernanceValidationError } from "~/shared/errors";
import type { PolicyService } from "./policies";
import { parseDateInput } from "./validate";
import type { ErasedUsers } from "./erasure";
import { YEAR_MS } from "./durations";
import { AuditBuffer } from "./audit-buffer";

const MAX_BUFFER = 10_000;
/** Calls of an erased user still in flight when the erasure answered are recorded under the pseudonym. */
const LATE_CALLS_MS = 60_000;
/** Entries older than the organization's retention are deleted at most this often, at a flush. */
const PRUNE_EVERY_MS = 3_600_000;

export interface AuditCall {
  method: string;
  path: string;
  status: number;
  userId?: string;
  memorySpaceId?: string;
  /** Who asked (SPEC §8); absent when the request was not authenticated. */
  principal?: Pick<Principal, "org" | "id" | "kind">;
  /** The route template that answered. */
  route?: string;
  durationMs?: number;
}

export class AuditLog implements ErasedUsers {
  /**
   * Each call in call order: a key's or a token's with its organization; the local operator's with its
   * policy lookup when the policy was not cached (its organization, or null when that policy does not log calls).
   */
  private readonly pending = new AuditBuffer();
  /**
   * Erased users by ownerKey (another organization's user of the same id is another user): their calls
   * recorded until `until` (their erasure's time + LATE_CALLS_MS) carry the pseudonym.
   */
  private readonly erased = new Map<string, { pseudonym: string; until: number }>();
  private prunedAt = -Infinity;
  /** Policy lookups of recorded calls not answered yet (see settle). */
  private readonly lookups = new Set<Promise<string | null>>();

  constructor(
    private readonly store: Store,
    private readonly policies: PolicyService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The shared periodic commit this log's rows are written in. */
    private readonly writes: DeferredWrites<Repos>,
  ) {
    writes.add(() => this.unwritten());
  }

  /**
   * Called once per answered request; the row is written at the next flush. A call with a key or a token
   * is always logged, in its own organization: its row costs the request ten values on an array. The
   * local operator's is logged as its organization's policy says, looked up meanwhile.
   */
  record(call: AuditCall): void {
    const p = call.principal;
    if (p && p.kind !== "local") this.pending.push(call, this.clock.now(), p.org);
    else if (!this.byCachedPolicy(call)) {
      const org = this.byPolicy(call);
      this.lookups.add(org);
      void org.finally(() => this.lookups.delete(org));
      this.pending.push(call, this.clock.now(), org);
    }
    if (this.pending.size >= MAX_BUFFER) void this.flush();
    else this.writes.soon();
  }

  /**
   * Resolves once every call recorded so far knows whether its organization's policy logs it. A policy
   * write waits for this first, so a call made while logging was on is logged even when the change that
   * turns logging off commits before the call's policy lookup would have run.
   */
  async settle(): Promise<void> {
    await Promise.all(this.lookups);
  }

  /**
   * A governance change written at once, whatever the policy says about logging calls: removing a policy
   * may be what switched logging off, and it must stay traceable.
   */
  async change(e: { organizationId: string; memorySpaceId?: string; operation: string; path: string }): Promise<void> {
    await this.flush();
    const row: AuditRow = {
      at: this.clock.now(),
      organization_id: e.organizationId,
      memory_space_id: e.memorySpaceId ?? null,
      user_id: null,
      method: e.operation,
      path: e.path,
      status: 200,
    };
    await this.store.write((tx) => tx.governance.insertAudit([row]), orgWide(e.organizationId));
  }

  /**
   * Decides at once when the policy is cached (nearly every call): what byPolicy would decide a turn later
   * from the same cache entry, without the promises (3 us of a request). False: it is not, ask byPolicy.
   */
  private byCachedPolicy(call: AuditCall): boolean {
    let scope: ReturnType<PolicyService["auditScopeNow"]>;
    try {
      scope = this.policies.auditScopeNow(call.principal?.org);
    } catch {
      return false; // byPolicy reads it again, and logs why it could not
    }
    if (!scope) return false;
    if (scope.policy.compliance.auditLogging) this.pending.push(call, this.clock.now(), scope.org);
    return true;
  }

  /** The organization the call is logged in, or null when its policy does not log calls. */
  private async byPolicy(call: AuditCall): Promise<string | null> {
    try {
      // The caller's organization (the local operator's is the default one), never the space's:
      // a call is its caller's organization's to log and to read (SPEC §8).
      const { org, policy } = await this.policies.auditScope(call.principal?.org);
      return policy.compliance.auditLogging ? org : null;
    } catch (e) {
      this.logger.error("audit log: the policy could not be read; call not recorded", { error: (e as Error).message });
      return null;
    }
  }

  /** Writes every call recorded so far (with the rest of the shared commit). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** The rows recorded since the last commit, as its part of the shared one (pruning first, when due). */
  private async unwritten(): Promise<DeferredBatch<Repos> | null> {
    if (this.clock.now() - this.prunedAt >= PRUNE_EVERY_MS) await this.pruneQuietly();
    if (!this.pending.size) return null;
    const rows = await this.pending.take();
    if (!rows.length) return null;
    return {
      // Named inside the write: an erasure that committed before it has told us its pseudonym by then. One
      // batch holds calls of any organization (each row names its own): system work, EVERY_ROW.
      write: (tx) => tx.governance.insertAudit(rows.map((r) => this.pseudonymized(r))),
      failed: (e) => this.logger.error("audit log write failed", { rows: rows.length, error: (e as Error).message }),
    };
  }

  /** Called in an erasure's transaction, which rewrote the stored entries: the ones not yet written follow. */
  forget(owner: Owner, pseudonym: string): void {
    this.erased.set(ownerKey(owner), { pseudonym, until: this.clock.now() + LATE_CALLS_MS });
  }

  /**
   * After the erasure committed. A flush that named its rows before `forget` may commit after the erasure's
   * rename, which then missed them (PostgreSQL runs the two side by side; SQLite one after the other): once
   * every flush begun so far has committed, the user's entries are renamed again.
   */
  async renameLate(owner: Owner): Promise<void> {
    const e = this.erased.get(ownerKey(owner));
    if (!e) return;
    await this.flush();
    await this.store.write((tx) => tx.governance.pseudonymize(owner, e.pseudonym), orgWide(owner.org));
  }

  private pseudonymized(row: AuditRow): AuditRow {
    if (this.erased.size === 0) return row;
    const key = row.user_id === null ? null : ownerKey({ org: row.organization_id, userId: row.user_id });
    const e = key === null ? undefined : this.erased.get(key);
    if (!e) return row;
    if (row.at < e.until) return { ...row, user_id: e.pseudonym };
    if (this.clock.now() >= e.until) this.erased.delete(key!);
    return row;
  }

  /**
   * Deletes each organization's entries older than the retention of its compliance mode
   * (compliance.dataRetentionYears of its effective policy); an erasure never deletes entries.
   */
  async prune(): Promise<number> {
    const now = this.clock.now();
    this.prunedAt = now;
    const orgs = await this.store.read((r) => r.governance.auditOrganizations(), EVERY_ROW);
    const limits = await Promise.all(
      orgs.map(async (org) => ({
        org,
        before: now - (await this.policies.forOrg(org)).policy.compliance.dataRetentionYears * YEAR_MS,
      })),
    );
    // Each organization's entries in a transaction of its own, scoped to it.
    let n = 0;
    for (const { org, before } of limits)
      n += await this.store.write((tx) => tx.governance.pruneAudit(org, before), orgWide(org));
    return n;
  }

  private async pruneQuietly(): Promise<void> {
    try {
      await this.prune();
    } catch (e) {
      this.logger.error("audit log pruning failed", { error: (e as Error).message });
    }
  }

  async query(input: { from?: unknown; to?: unknown; limit?: unknown; organizationId?: unknown }) {
    await this.flush();
    const from = input.from === undefined ? 0 : parseDateInput(input.from);
    const to = input.to === undefined ? this.clock.now() : parseDateInput(input.to);
    if (from === undefined)
      throw new GovernanceValidationError("INVALID_DATE_RANGE", "from must be an ISO date or epoch ms", "from");
    if (to === undefined)
      throw new GovernanceValidationError("INVALID_DATE_RANGE", "to must be an ISO date or epoch ms", "to");
    const limit = input.limit === undefined ? 1000 : input.limit;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 10_000)
      throw new GovernanceValidationError("INVALID_DATE_RANGE", "limit must be an integer from 1 to 10000", "limit");
    const org =
      typeof input.organizationId === "string" && input.organizationId
        ? input.organizationId
        : this.policies.defaultOrg;
    const entries = (await this.store.read((r) => r.governance.audit(org, from, to, limit), orgWide(org))).map((r) => ({
      ...r,
      at: new Date(r.at).toISOString(),
    }));
    return { success: true as const, entries };
  }
}
