// Time as a dependency: services take a Clock so tests can move time by hand.

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told; used by tests of TTLs, governance and sessions. */
export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** ISO 8601 UTC, as every API response writes timestamps. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** iso, with null kept for optional timestamps (archived_at, expires_at…). */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
