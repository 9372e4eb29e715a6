// The session lifecycle of SPEC §5.8 as pure functions of (timestamps, policy rules, now):
// active → idle → ended → archived → deleted. Reads, touch, end and the sweeps all use these,
// so a session shows the same state whether or not expire-idle has run yet.
import type { PolicyRules } from "~/governance/policy.schema";
import { SESSION_DEFAULTS } from "~/governance/templates";
import { parseDuration } from "~/governance/durations";

export const SESSION_STATES = ["active", "idle", "ended", "archived"] as const;
export type SessionState = (typeof SESSION_STATES)[number];
/** Why a session ended: `end` was called, maxDuration passed, or it stayed idle too long. */
export type EndReason = "explicit" | "max_duration" | "idle_timeout";

/** The policy's sessions block in milliseconds; missing parts fall back to seed 001's defaults. */
export interface SessionRules {
  idleMs: number;
  maxMs: number;
  autoExtend: boolean;
  warnMs?: number;
  autoExpireIdle: boolean;
  archiveMs?: number;
  deleteMs?: number;
  maxActive?: number;
  maxPerDevice?: number;
}

export interface Timeline {
  state: string;
  last_activity_at: number;
  expires_at: number;
  ended_at: number | null;
  end_reason: string | null;
}

export interface Phase {
  state: SessionState;
  ended_at: number | null;
  end_reason: EndReason | null;
}

const ms = (value: string | null | undefined): number | undefined => (value == null ? undefined : parseDuration(value));
const limit = (value: number | null | undefined): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? Math.floor(value) : undefined;

export function sessionRules(policy: Pick<PolicyRules, "sessions">): SessionRules {
  const s = policy.sessions;
  const out: SessionRules = {
    idleMs: ms(s?.lifecycle?.idleTimeout) ?? parseDuration(SESSION_DEFAULTS.lifecycle.idleTimeout)!,
    maxMs: ms(s?.lifecycle?.maxDuration) ?? parseDuration(SESSION_DEFAULTS.lifecycle.maxDuration)!,
    autoExtend: s?.lifecycle?.autoExtend ?? SESSION_DEFAULTS.lifecycle.autoExtend,
    autoExpireIdle: s?.cleanup?.autoExpireIdle ?? SESSION_DEFAULTS.cleanup.autoExpireIdle,
  };
  const optional = {
    warnMs: ms(s?.lifecycle?.warnBeforeExpiry),
    archiveMs: ms(s?.cleanup?.archiveAfter),
    deleteMs: ms(s?.cleanup?.deleteEndedAfter),
    maxActive: limit(s?.limits?.maxActiveSessions),
    maxPerDevice: limit(s?.limits?.maxSessionsPerDevice),
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k as keyof typeof optional] = v;
  return out;
}

/** When an idle session ends on its own: a second idleTimeout without activity (autoExpireIdle), else never. */
const idleEndAt = (t: Timeline, r: SessionRules) => (r.autoExpireIdle ? t.last_activity_at + 2 * r.idleMs : Infinity);

/**
 * The state a session is in at `now`. Stored ended/archived rows are final; for live rows the
 * end time is the earlier of expires_at and the idle expiry, so ended_at is when it really ended.
 */
export function phaseAt(t: Timeline, r: SessionRules, now: number): Phase {
  if (t.state === "ended" || t.state === "archived")
    return { state: t.state, ended_at: t.ended_at, end_reason: t.end_reason as EndReason | null };
  const idleEnd = idleEndAt(t, r);
  const endAt = Math.min(t.expires_at, idleEnd);
  if (now >= endAt)
    return { state: "ended", ended_at: endAt, end_reason: t.expires_at <= idleEnd ? "max_duration" : "idle_timeout" };
  if (now >= t.last_activity_at + r.idleMs) return { state: "idle", ended_at: null, end_reason: null };
  return { state: "active", ended_at: null, end_reason: null };
}

/** expires_at after activity at `now`: a sliding window of maxDuration with autoExtend, unchanged without. */
export const expiryAfterActivity = (t: Timeline, r: SessionRules, now: number): number =>
  r.autoExtend ? Math.max(t.expires_at, now + r.maxMs) : t.expires_at;

/** Cleanup's cut-offs: sessions that ended at or before these instants are archived / deleted. */
export const cleanupCutoffs = (r: SessionRules, now: number) => ({
  archiveEndedBy: r.archiveMs === undefined ? undefined : now - r.archiveMs,
  deleteEndedBy: r.deleteMs === undefined ? undefined : now - r.deleteMs,
});

/** The moment a client should be warned that the session is about to expire (warnBeforeExpiry). */
export const warnAt = (expiresAt: number, r: SessionRules): number | undefined =>
  r.warnMs === undefined ? undefined : expiresAt - r.warnMs;
