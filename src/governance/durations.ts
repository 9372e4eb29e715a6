// Duration strings of SPEC §5.2 (`^\d+[mhdy]$`) and the time constants the governance
// code shares. A year is exactly 365 days everywhere (durations, dataRetentionYears).

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const YEAR_MS = 365 * DAY_MS;

/** The only accepted shape: an unsigned integer and one lower-case unit letter, nothing around it. */
export const DURATION_PATTERN = /^(\d+)([mhdy])$/;

const UNIT_MS: Record<string, number> = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, y: YEAR_MS };

/**
 * Milliseconds of a duration string, or undefined when it is not one
 * (7years, 1w, 7D, "30 d", 1.5y, "", non-strings). "0d" is valid and means zero.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = DURATION_PATTERN.exec(value);
  if (!match) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? Number.NaN);
  // A few hundred digits overflow to Infinity; such a value is no usable duration.
  return Number.isFinite(ms) ? ms : undefined;
}

export const isDuration = (value: unknown): value is string => parseDuration(value) !== undefined;

/**
 * Milliseconds of an optional policy duration: null/undefined (not configured) → undefined.
 * Policies reaching the planner are validated, so a malformed string is treated as "not set".
 */
export const optionalDurationMs = (value: string | null | undefined): number | undefined =>
  value == null ? undefined : parseDuration(value);
