// The staged checks behind validatePolicy / validatePartialPolicy (SPEC §5.6), one function
// per stage so validate.ts can run them in the exact order. `full` = a complete policy
// (setPolicy): required parts must exist; otherwise only present parts are checked.

import { GovernanceValidationError, type GovernanceErrorCode } from "~/shared/errors";
import { parseDuration } from "./durations";
import { COMPLIANCE_MODES } from "./policy.schema";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function fail(code: GovernanceErrorCode, field: string | undefined, message: string): never {
  throw new GovernanceValidationError(code, message, field);
}

const SECTIONS = ["conversations", "immutable", "mutable", "vector", "compliance"] as const;
const SUBSECTIONS = ["conversations", "immutable", "mutable", "vector"] as const;
const SESSION_PARTS = ["lifecycle", "cleanup", "limits"] as const;

/** Value at a dotted path of plain objects; undefined as soon as a step is not an object. */
export function at(root: Obj, path: string): unknown {
  let cur: unknown = root;
  for (const key of path.split(".")) cur = isObj(cur) ? cur[key] : undefined;
  return cur;
}

const describe = (v: unknown): string =>
  v === undefined
    ? "nothing"
    : v === null
      ? "null"
      : Array.isArray(v)
        ? "an array"
        : typeof v === "string"
          ? JSON.stringify(v)
          : typeof v;

function requireObject(p: Obj, path: string, required: boolean): void {
  const v = at(p, path);
  if (v === undefined && !required) return;
  if (!isObj(v)) {
    const what = v === undefined ? "is missing" : `must be an object, got ${describe(v)}`;
    fail("MISSING_REQUIRED_FIELD", path, `${path} ${what}`);
  }
}

/** Sections, then each section's retention/purging, then the optional sessions parts. */
export function checkStructure(p: Obj, full: boolean): void {
  for (const s of SECTIONS) requireObject(p, s, full);
  requireObject(p, "sessions", false);
  for (const s of SUBSECTIONS) {
    if (p[s] === undefined) continue;
    requireObject(p, `${s}.retention`, full);
    requireObject(p, `${s}.purging`, full);
  }
  if (p.sessions !== undefined) for (const part of SESSION_PARTS) requireObject(p, `sessions.${part}`, false);
}

/**
 * Every given id must be a non-blank string; `prefix` locates the ids (e.g. "scope."). null is given, not
 * absent: read as absent, `{organizationId, memorySpaceId: null}` filed an organization's policy elsewhere.
 */
export function checkScopeIds(src: Obj, prefix = ""): void {
  for (const id of ["organizationId", "memorySpaceId"] as const) {
    const v = src[id];
    if (v === undefined) continue;
    if (typeof v !== "string" || v.trim() === "") {
      fail("INVALID_SCOPE", `${prefix}${id}`, `${prefix}${id} must be a non-empty string, got ${describe(v)}`);
    }
  }
}

export const hasScopeId = (src: Obj): boolean => src.organizationId !== undefined || src.memorySpaceId !== undefined;

/** [path, value, required in a full policy, null allowed (null = no value)]. */
type DurationSlot = readonly [path: string, value: unknown, required: boolean, nullable: boolean];

const FIXED_DURATIONS = [
  ["conversations.retention.deleteAfter", true, false],
  ["conversations.retention.archiveAfter", false, true],
  ["conversations.purging.deleteInactiveAfter", false, true],
  ["immutable.byType", false, false], // placeholder: expanded to each type's deleteAfter, in order
  ["immutable.purging.purgeUnusedAfter", false, true],
  ["mutable.retention.defaultTTL", false, true],
  ["mutable.retention.purgeInactiveAfter", false, true],
  ["mutable.purging.deleteUnaccessedAfter", false, true],
  ["sessions.lifecycle.idleTimeout", false, false],
  ["sessions.lifecycle.maxDuration", false, false],
  ["sessions.lifecycle.warnBeforeExpiry", false, true],
  ["sessions.cleanup.deleteEndedAfter", false, true],
  ["sessions.cleanup.archiveAfter", false, true],
] as const;

function durationSlots(p: Obj): DurationSlot[] {
  return FIXED_DURATIONS.flatMap(([path, required, nullable]): DurationSlot[] => {
    if (path !== "immutable.byType") return [[path, at(p, path), required, nullable]];
    const byType = at(p, "immutable.retention.byType");
    if (!isObj(byType)) return [];
    // Type names may contain dots, so values are read directly rather than via at().
    return Object.entries(byType).map(
      ([t, rule]) =>
        [
          `immutable.retention.byType.${t}.deleteAfter`,
          isObj(rule) ? rule.deleteAfter : undefined,
          false,
          true,
        ] as const,
    );
  });
}

/** deleteAfter is required in a full policy; every other duration only when present. */
export function checkDurations(p: Obj, full: boolean): void {
  for (const [path, v, required, nullable] of durationSlots(p)) {
    if (v === undefined && !(required && full)) continue;
    if (v === null && nullable) continue;
    if (parseDuration(v) === undefined) {
      fail(
        "INVALID_PERIOD_FORMAT",
        path,
        `${path} must be a duration like 30m, 24h, 7d or 7y (integer + m|h|d|y), got ${describe(v)}`,
      );
    }
  }
}

export const isVersionCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= -1;

function checkVersionCount(v: unknown, path: string): void {
  if (!isVersionCount(v)) {
    fail("INVALID_VERSIONS", path, `${path} must be an integer >= -1 (-1 = unlimited), got ${describe(v)}`);
  }
}

function checkCountMap(p: Obj, path: string, entryKey: string | undefined, full: boolean): void {
  const map = at(p, path);
  if (map === undefined || map === null) return; // absence of a required map is a tail check
  if (!isObj(map)) fail("INVALID_VERSIONS", path, `${path} must be an object keyed by name, got ${describe(map)}`);
  for (const [name, entry] of Object.entries(map)) {
    if (entryKey === undefined) {
      checkVersionCount(entry, `${path}.${name}`);
      continue;
    }
    if (!isObj(entry))
      fail("INVALID_VERSIONS", `${path}.${name}`, `${path}.${name} must be an object like {versionsToKeep: 10}`);
    if (full || entry[entryKey] !== undefined) checkVersionCount(entry[entryKey], `${path}.${name}.${entryKey}`);
  }
}

/** immutable then vector defaultVersions, then byType versionsToKeep, then bySourceType values. */
export function checkVersions(p: Obj, full: boolean): void {
  for (const path of ["immutable.retention.defaultVersions", "vector.retention.defaultVersions"]) {
    const v = at(p, path);
    if (full || v !== undefined) checkVersionCount(v, path);
  }
  checkCountMap(p, "immutable.retention.byType", "versionsToKeep", full);
  checkCountMap(p, "vector.retention.bySourceType", undefined, full);
}

const isRangeEnd = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function checkImportanceEntry(entry: unknown, path: string): readonly [number, number] {
  if (!isObj(entry))
    fail("INVALID_IMPORTANCE_RANGE", path, `${path} must be an object like {range: [0, 20], versions: 1}`);
  const range = entry.range;
  if (!Array.isArray(range) || range.length !== 2 || !isRangeEnd(range[0]) || !isRangeEnd(range[1])) {
    fail(
      "INVALID_IMPORTANCE_RANGE",
      `${path}.range`,
      `${path}.range must be a pair of numbers [min, max], got ${JSON.stringify(range) ?? "nothing"}`,
    );
  }
  const [min, max] = range as [number, number];
  if (min < 0 || min > 100 || max < 0 || max > 100) {
    fail("INVALID_IMPORTANCE_RANGE", `${path}.range`, `${path}.range [${min}, ${max}] must lie within 0–100`);
  }
  if (min >= max)
    fail("INVALID_IMPORTANCE_RANGE", `${path}.range`, `${path}.range [${min}, ${max}] must have min < max`);
  checkVersionCount(entry.versions, `${path}.versions`);
  return [min, max];
}

/** Per entry, in order: range shape/bounds, versions, then overlap (inclusive ends) with earlier entries. */
export function checkImportance(p: Obj, full: boolean): void {
  const path = "vector.retention.byImportance";
  const list = at(p, path);
  if (list === undefined && !full) return;
  if (!Array.isArray(list))
    fail("INVALID_IMPORTANCE_RANGE", path, `${path} must be an array of {range, versions}, got ${describe(list)}`);
  const seen: (readonly [number, number])[] = [];
  list.forEach((entry, i) => {
    const [min, max] = checkImportanceEntry(entry, `${path}[${i}]`);
    const j = seen.findIndex(([a, b]) => min <= b && a <= max);
    const other = seen[j];
    if (other) {
      fail(
        "OVERLAPPING_IMPORTANCE_RANGES",
        `${path}[${i}].range`,
        `${path}[${i}].range [${min}, ${max}] overlaps ${path}[${j}].range [${other[0]}, ${other[1]}] (ends are inclusive)`,
      );
    }
    seen.push([min, max]);
  });
}

export function checkMode(p: Obj, full: boolean): void {
  const mode = at(p, "compliance.mode");
  if (mode === undefined && !full) return;
  if (!(COMPLIANCE_MODES as readonly unknown[]).includes(mode)) {
    fail(
      "INVALID_COMPLIANCE_MODE",
      "compliance.mode",
      `compliance.mode must be one of ${COMPLIANCE_MODES.join(", ")}, got ${describe(mode)}`,
    );
  }
}

type LeafKind = "boolean" | "map" | "years" | "positive" | "levels";
const LEAVES: readonly (readonly [path: string, kind: LeafKind, required: boolean])[] = [
  ["conversations.retention.purgeOnUserRequest", "boolean", true],
  ["conversations.purging.autoDelete", "boolean", true],
  ["immutable.retention.byType", "map", true],
  ["immutable.purging.autoCleanupVersions", "boolean", true],
  ["mutable.purging.autoDelete", "boolean", true],
  ["vector.purging.autoCleanupVersions", "boolean", true],
  ["vector.purging.deleteOrphaned", "boolean", true],
  ["sessions.lifecycle.autoExtend", "boolean", false],
  ["sessions.cleanup.autoExpireIdle", "boolean", false],
  ["sessions.limits.maxActiveSessions", "positive", false],
  ["sessions.limits.maxSessionsPerDevice", "positive", false],
  ["compliance.dataRetentionYears", "years", true],
  ["compliance.requireJustification", "levels", true],
  ["compliance.auditLogging", "boolean", true],
];

const LEAF_RULE: Record<LeafKind, [test: (v: unknown) => boolean, expected: string]> = {
  boolean: [(v) => typeof v === "boolean", "a boolean"],
  map: [isObj, "an object"],
  years: [(v) => Number.isInteger(v) && (v as number) >= 0, "a non-negative integer"],
  positive: [(v) => Number.isInteger(v) && (v as number) >= 1, "a positive integer"],
  levels: [Array.isArray, "an array of importance levels"],
};

/**
 * Not in SPEC's list: the remaining required fields and their types, checked last so the
 * listed order stays exact. A wrong type reports MISSING_REQUIRED_FIELD (no better code exists).
 */
export function checkLeaves(p: Obj, full: boolean): void {
  for (const [path, kind, required] of LEAVES) {
    const v = at(p, path);
    if (v === undefined && !(required && full)) continue;
    if (v === null && kind === "positive") continue; // a null session limit means "no limit"
    const [test, expected] = LEAF_RULE[kind];
    if (!test(v)) fail("MISSING_REQUIRED_FIELD", path, `${path} must be ${expected}, got ${describe(v)}`);
  }
  const levels = at(p, "compliance.requireJustification");
  if (!Array.isArray(levels)) return;
  levels.forEach((level, i) => {
    if (!Number.isInteger(level) || level < 0 || level > 100) {
      const path = `compliance.requireJustification[${i}]`;
      fail("INVALID_IMPORTANCE_RANGE", path, `${path} must be an integer importance 0–100, got ${describe(level)}`);
    }
  });
}
