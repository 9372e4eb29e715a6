// The sessions API (SPEC §5.8): create under the policy's limits, touch, end, read, and the
// expire-idle / cleanup sweeps, each executing the sessions block of the effective policy of
// the session's memory space (agent_id). Time comes only from the injected clock.
import type { Owner, Repos, SessionRow, SessionScope, Store, StoreScope } from "~/store/store";
import { userScope } from "~/shared/store-scope";
import { type Clock, iso, isoOrNull } from "~/shared/clock";
import { conflict, notFound, validationError } from "~/shared/errors";
import { newId } from "~/shared/ids";
import type { UserScope } from "~/shared/principal";
import type { PolicyRules } from "~/governance/policy.schema";
import {
  cleanupCutoffs,
  expiryAfterActivity,
  phaseAt,
  sessionRules,
  warnAt,
  type Phase,
  type SessionRules,
} from "./lifecycle";
import {
  DEFAULT_SPACE,
  MAX_SESSION_METADATA_BYTES,
  type CleanupResponse,
  type CreateSessionInput,
  type ExpireIdleResponse,
  type ListSessionsInput,
  type Session,
  type SessionListResponse,
  type SessionResponse,
  type SweepInput,
} from "./sessions.schema";

/** Where the effective policy of a memory space comes from (the governance PolicyService). */
export interface SessionPolicies {
  /** The organization's memory space `spaceId`; `r`: read through this transaction when asked from inside one. */
  forSpace(org: string, spaceId: string, r?: Repos): Promise<{ policy: PolicyRules }>;
}

const isLive = (p: Phase) => p.state === "active" || p.state === "idle";

export class SessionsService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly policies: SessionPolicies,
  ) {}

  async create(scope: UserScope, input: CreateSessionInput): Promise<SessionResponse> {
    const metadata = JSON.stringify(input.metadata ?? {});
    if (Buffer.byteLength(metadata) > MAX_SESSION_METADATA_BYTES)
      throw validationError("metadata", `metadata must be at most ${MAX_SESSION_METADATA_BYTES} bytes of JSON`);
    const spaceId = scope.agentId ?? input.agent_id ?? DEFAULT_SPACE;
    const rules = await this.rules(scope.org, spaceId);
    const now = this.clock.now();
    const row: SessionRow = {
      id: newId(),
      org_id: scope.org,
      user_id: scope.userId,
      memory_space_id: spaceId,
      device: input.device ?? null,
      metadata,
      state: "active",
      created_at: now,
      last_activity_at: now,
      expires_at: now + rules.maxMs,
      ended_at: null,
      end_reason: null,
      archived_at: null,
    };
    await this.store.write(async (tx) => {
      await this.checkLimits(tx, row, rules, now);
      await tx.sessions.insert(row);
    }, userScope(scope));
    return { success: true as const, session: toView(row, rules, now) };
  }

  async get(scope: UserScope, id: string): Promise<SessionResponse> {
    const row = await this.store.read((r) => this.mustGet(r, scope, id), userScope(scope));
    return {
      success: true as const,
      session: toView(row, await this.rules(row.org_id, row.memory_space_id), this.clock.now()),
    };
  }

  /** Newest first. Live rows are few per user and their state is computed, so they are filtered here. */
  async list(scope: UserScope, q: ListSessionsInput): Promise<SessionListResponse> {
    const now = this.clock.now();
    const limit = q.limit ?? 50;
    const space = scope.agentId ?? q.agent_id ?? null;
    const userId = scope.userId;
    const rules = new Map<string, SessionRules>();
    const stored =
      q.state === undefined ? ["ended", "archived"] : q.state === "ended" || q.state === "archived" ? [q.state] : [];
    const read = await this.store.read(
      async (r) => ({
        live: await r.sessions.liveOf(scope, space),
        terminal: stored.length ? await r.sessions.terminal(scope, space, stored, limit) : [],
        terminalTotal: stored.length ? await r.sessions.countTerminal(scope, space, stored) : 0,
      }),
      userScope(scope),
    );
    for (const row of [...read.live, ...read.terminal])
      if (!rules.has(row.memory_space_id))
        rules.set(row.memory_space_id, await this.rules(scope.org, row.memory_space_id));
    const rulesOf = (s: string) => rules.get(s)!;
    const live = read.live.filter(
      (r) => q.state === undefined || phaseAt(r, rulesOf(r.memory_space_id), now).state === q.state,
    );
    const terminal = read.terminal;
    const total = live.length + read.terminalTotal;
    const page = [...live, ...terminal].sort(newestFirst).slice(0, limit);
    return { results: page.map((r) => toView(r, rulesOf(r.memory_space_id), now)), total, has_more: total > limit };
  }

  /** Activity: an idle session becomes active again; with autoExtend the expiry slides. */
  touch(scope: UserScope, id: string): Promise<SessionResponse> {
    const now = this.clock.now();
    return this.store.write(async (tx) => {
      const { row, rules, phase } = await this.current(tx, scope, id, now);
      if (!isLive(phase))
        throw conflict(
          `session '${id}' has ${phase.state === "archived" ? "ended and was archived" : `ended (${phase.end_reason})`}; start a new session`,
        );
      const next = {
        ...row,
        state: "active",
        last_activity_at: now,
        expires_at: expiryAfterActivity(row, rules, now),
      };
      await tx.sessions.touch(scope, id, now, next.expires_at);
      return { success: true as const, session: toView(next, rules, now) };
    }, userScope(scope));
  }

  /** Ends a live session now; an already ended (or archived) session is returned unchanged. */
  end(scope: UserScope, id: string): Promise<SessionResponse> {
    const now = this.clock.now();
    return this.store.write(async (tx) => {
      const { row, rules, phase } = await this.current(tx, scope, id, now);
      const next: Phase = isLive(phase) ? { state: "ended", ended_at: now, end_reason: "explicit" } : phase;
      if (next.state !== row.state) await tx.sessions.setState(scope, id, next);
      return { success: true as const, session: toView({ ...row, ...next }, rules, now) };
    }, userScope(scope));
  }

  /** Persists idle and ended states that time has reached (the same states reads already show). */
  /** `org`: the caller's organization (an admin sweeps its own); null: every organization. */
  async expireIdle(input: SweepInput, org: string | null): Promise<ExpireIdleResponse> {
    const now = this.clock.now();
    const scope = scopeOf(input, org);
    const { idled, ended } = await this.once("expire-idle", scope, now, (tx) => this.settle(tx, scope, now));
    return { success: true as const, idled, ended };
  }

  /** Settles the lifecycle first, then deletes (deleteEndedAfter) and archives (archiveAfter) by age since the end. */
  cleanup(input: SweepInput, org: string | null): Promise<CleanupResponse> {
    const now = this.clock.now();
    const scope = scopeOf(input, org);
    return this.once("cleanup", scope, now, async (tx) => {
      await this.settle(tx, scope, now);
      let archived = 0;
      let deleted = 0;
      // Each organization's space under that organization's policy (a space id names a space only inside it).
      for (const { org, space } of await tx.sessions.terminalSpaces(scope)) {
        const cut = cleanupCutoffs(await this.rules(org, space, tx), now);
        const within = { ...scope, org };
        if (cut.deleteEndedBy !== undefined) deleted += await tx.sessions.deleteEnded(space, cut.deleteEndedBy, within);
        if (cut.archiveEndedBy !== undefined)
          archived += await tx.sessions.archive(space, cut.archiveEndedBy, now, within);
      }
      return { success: true as const, archived, deleted };
    });
  }

  /**
   * One sweep per request across every node of the store: sweeps take turns (Store.exclusive), and one that
   * finds a sweep of its kind and scope recorded after it arrived (under way then, or begun since) answers
   * with that sweep's result instead of sweeping again; a sweep records itself in its own transaction.
   */
  private async once<T>(kind: string, scope: SessionScope, now: number, sweep: (tx: Repos) => Promise<T>): Promise<T> {
    const key = JSON.stringify([scope.org, scope.userId, scope.spaceId]);
    const within = sweepScope(scope);
    const runs = () => this.store.read((r) => r.sessions.sweepRuns(kind, key), within);
    const seen = (await runs()).runs;
    return this.store.exclusive("session-sweeps", async () => {
      const last = await runs();
      if (last.runs > seen && last.result !== null) return JSON.parse(last.result) as T;
      return this.store.write(async (tx) => {
        const result = await sweep(tx);
        await tx.sessions.logSweep(kind, key, now, JSON.stringify(result));
        return result;
      }, within);
    });
  }

  /** Erasure (delete_all_memories with cascade): every session of the user, whatever its state. */
  deleteUser(owner: Owner): Promise<number> {
    return this.store.write((tx) => tx.sessions.deleteUser(owner), userScope(owner));
  }

  private async settle(tx: Repos, scope: SessionScope, now: number): Promise<{ idled: number; ended: number }> {
    const rulesOf = memo((key: string) => this.rules(...(JSON.parse(key) as [string, string]), tx));
    let idled = 0;
    let ended = 0;
    for (const row of await tx.sessions.live(scope)) {
      const phase = phaseAt(row, await rulesOf(JSON.stringify([row.org_id, row.memory_space_id])), now);
      if (phase.state === row.state) continue;
      await tx.sessions.setState({ org: row.org_id, userId: row.user_id }, row.id, phase);
      if (phase.state === "idle") idled++;
      if (phase.state === "ended") ended++;
    }
    return { idled, ended };
  }

  private async checkLimits(tx: Repos, row: SessionRow, rules: SessionRules, now: number): Promise<void> {
    if (rules.maxActive === undefined && (rules.maxPerDevice === undefined || row.device === null)) return;
    const live = (await tx.sessions.liveOf({ org: row.org_id, userId: row.user_id }, row.memory_space_id)).filter((r) =>
      isLive(phaseAt(r, rules, now)),
    );
    const where = `in memory space '${row.memory_space_id}'`;
    if (rules.maxActive !== undefined && live.length >= rules.maxActive)
      throw conflict(
        `session limit reached: user '${row.user_id}' already has ${live.length} active or idle sessions ${where} (maxActiveSessions ${rules.maxActive}); end one or let it expire`,
      );
    const sameDevice = live.filter((r) => r.device === row.device).length;
    if (row.device !== null && rules.maxPerDevice !== undefined && sameDevice >= rules.maxPerDevice)
      throw conflict(
        `session limit reached: user '${row.user_id}' already has ${sameDevice} active or idle '${row.device}' sessions ${where} (maxSessionsPerDevice ${rules.maxPerDevice}); end one or let it expire`,
      );
  }

  /** `r`: read the policy through this transaction when asked from inside one. */
  private async rules(org: string, spaceId: string, r?: Repos): Promise<SessionRules> {
    return sessionRules((await this.policies.forSpace(org, spaceId, r)).policy);
  }

  /** The user's session with the rules of its space and the phase they put it in now (404 when missing). */
  private async current(tx: Repos, scope: UserScope, id: string, now: number) {
    const row = await this.mustGet(tx, scope, id);
    const rules = await this.rules(row.org_id, row.memory_space_id, tx);
    return { row, rules, phase: phaseAt(row, rules, now) };
  }

  /** The user's session; one in another agent's space is missing for a key bound to an agent. */
  private async mustGet(r: Repos, scope: UserScope, id: string): Promise<SessionRow> {
    const row = await r.sessions.get(scope, id);
    if (!row || (scope.agentId !== undefined && row.memory_space_id !== scope.agentId)) throw notFound("session", id);
    return row;
  }
}

const scopeOf = (input: SweepInput, org: string | null): SessionScope => ({
  org,
  userId: input.user_id ?? null,
  spaceId: input.agent_id ?? null,
});
/** A sweep's transaction: the caller's organization (and user, when it names one); no organization: every one. */
const sweepScope = (s: SessionScope): StoreScope => ({ org: s.org ?? undefined, user: s.userId ?? undefined });
const newestFirst = (a: SessionRow, b: SessionRow) =>
  b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function memo<T>(fn: (k: string) => T): (k: string) => T {
  const cache = new Map<string, T>();
  return (k) => {
    if (!cache.has(k)) cache.set(k, fn(k));
    return cache.get(k)!;
  };
}

/** The wire shape: the state (and end) as of `now`, timestamps as ISO strings. */
function toView(row: SessionRow, rules: SessionRules, now: number): Session {
  const phase = phaseAt(row, rules, now);
  const warn = warnAt(row.expires_at, rules);
  return {
    id: row.id,
    user_id: row.user_id,
    agent_id: row.memory_space_id,
    device: row.device,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    state: phase.state,
    created_at: iso(row.created_at),
    last_activity_at: iso(row.last_activity_at),
    expires_at: iso(row.expires_at),
    ended_at: isoOrNull(phase.ended_at),
    end_reason: phase.end_reason,
    archived_at: isoOrNull(row.archived_at),
    ...(warn !== undefined ? { warn_at: iso(warn) } : {}),
  };
}
