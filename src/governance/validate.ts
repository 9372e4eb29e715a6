// Input validation of every governance operation, in the exact order of SPEC §5.6.
// Field paths: dotted from the operation's input object, array items as [i], map entries
// as .name (e.g. vector.retention.byImportance[1].range, immutable.retention.byType.policy).

import type { GovernancePolicy, GovernancePolicyPatch, PolicyScope, TemplateName } from "./policy.schema";
import { isTemplateName, TEMPLATE_NAMES } from "./policy.schema";
import {
  ENFORCEMENT_RULES,
  GOVERNANCE_LAYERS,
  STATS_PERIODS,
  type EnforcementRule,
  type GovernanceLayer,
  type StatsPeriod,
} from "./operations.schema";
import {
  checkDurations,
  checkImportance,
  checkLeaves,
  checkMode,
  checkScopeIds,
  checkStructure,
  checkVersions,
  fail,
  hasScopeId,
  isObj,
  type Obj,
} from "./policy-checks";
import { DAY_MS, YEAR_MS } from "./durations";

function requirePolicy(policy: unknown): Obj {
  if (policy === undefined || policy === null) fail("MISSING_POLICY", undefined, "A policy object is required");
  if (!isObj(policy)) fail("MISSING_POLICY", undefined, "The policy must be an object");
  return policy;
}

function checkValues(p: Obj, full: boolean): void {
  checkDurations(p, full);
  checkVersions(p, full);
  checkImportance(p, full);
  checkMode(p, full);
  checkLeaves(p, full);
}

/** setPolicy: a complete policy with an organizationId and/or memorySpaceId. */
export function validatePolicy(policy: unknown): asserts policy is GovernancePolicy {
  const p = requirePolicy(policy);
  checkStructure(p, true);
  if (!hasScopeId(p)) fail("MISSING_SCOPE", undefined, "The policy needs an organizationId or a memorySpaceId");
  checkScopeIds(p);
  checkValues(p, true);
}

/** simulate (and any partial policy): present parts only; no scope required, present ids must be non-blank. */
export function validatePartialPolicy(policy: unknown): asserts policy is GovernancePolicyPatch {
  const p = requirePolicy(policy);
  checkStructure(p, false);
  checkScopeIds(p);
  checkValues(p, false);
}

/** setAgentOverride(memorySpaceId, overrides): a partial policy plus a non-blank space id. */
export function validateAgentOverride(
  memorySpaceId: unknown,
  overrides: unknown,
): asserts overrides is GovernancePolicyPatch {
  const p = requirePolicy(overrides);
  checkStructure(p, false);
  if (typeof memorySpaceId !== "string" || memorySpaceId.trim() === "") {
    fail("MISSING_SCOPE", "memorySpaceId", "An override needs a non-empty memorySpaceId");
  }
  checkScopeIds(p);
  checkValues(p, false);
}

/** removePolicy(scope): MISSING_SCOPE (no scope, or neither id) → INVALID_SCOPE; the global defaults cannot be removed. */
export function validateRemoveScope(scope: unknown): PolicyScope {
  if (!isObj(scope) || !hasScopeId(scope))
    fail("MISSING_SCOPE", undefined, "removePolicy needs an organizationId or a memorySpaceId");
  checkScopeIds(scope);
  return scope as PolicyScope;
}

export interface ValidEnforceOptions {
  scope: PolicyScope;
  layers: GovernanceLayer[];
  rules: EnforcementRule[];
}

function checkNames<T extends string>(
  value: unknown,
  allowed: readonly T[],
  field: string,
  code: "INVALID_LAYERS" | "INVALID_RULES",
): T[] {
  if (value === undefined) return [...allowed];
  if (!Array.isArray(value)) fail(code, field, `${field} must be an array of: ${allowed.join(", ")}`);
  if (value.length === 0)
    fail(code, field, `${field} must not be empty; omit it to mean all of: ${allowed.join(", ")}`);
  for (const [i, name] of value.entries()) {
    if (!(allowed as readonly unknown[]).includes(name)) {
      fail(code, field, `${field}[${i}] ${JSON.stringify(name) ?? "undefined"} is not one of: ${allowed.join(", ")}`);
    }
  }
  return [...new Set(value as T[])];
}

/** enforce: MISSING_OPTIONS → MISSING_SCOPE → INVALID_SCOPE → INVALID_LAYERS → INVALID_RULES; fills defaults. */
export function validateEnforceOptions(options: unknown): ValidEnforceOptions {
  if (!isObj(options)) fail("MISSING_OPTIONS", undefined, "enforce needs options: {scope, layers?, rules?}");
  const scope = options.scope;
  if (!isObj(scope)) fail("MISSING_SCOPE", "scope", "enforce needs scope: {organizationId?, memorySpaceId?}");
  checkScopeIds(scope, "scope.");
  if (!hasScopeId(scope)) fail("INVALID_SCOPE", "scope", "scope must name an organizationId or a memorySpaceId");
  return {
    scope: pickScope(scope),
    layers: checkNames(options.layers, GOVERNANCE_LAYERS, "layers", "INVALID_LAYERS"),
    rules: checkNames(options.rules, ENFORCEMENT_RULES, "rules", "INVALID_RULES"),
  };
}

const pickScope = (src: Obj): PolicyScope => ({
  ...(typeof src.organizationId === "string" ? { organizationId: src.organizationId } : {}),
  ...(typeof src.memorySpaceId === "string" ? { memorySpaceId: src.memorySpaceId } : {}),
});

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Epoch ms of an ISO 8601 string, finite epoch-ms number or valid Date; undefined otherwise. */
export function parseDateInput(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = ISO_DATE.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date.parse rolls 2024-02-30 over to March 1st; a calendar check refuses it instead.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

export interface ValidReportOptions {
  scope: PolicyScope;
  start: number;
  end: number;
}

/** getComplianceReport: INVALID_DATE_RANGE (start, end, then order) → MISSING_SCOPE → INVALID_SCOPE. */
export function validateComplianceReportOptions(options: unknown): ValidReportOptions {
  if (!isObj(options))
    fail(
      "MISSING_OPTIONS",
      undefined,
      "getComplianceReport needs options: {organizationId | memorySpaceId, period: {start, end}}",
    );
  const period = options.period;
  if (!isObj(period)) fail("INVALID_DATE_RANGE", "period", "period must be an object {start, end}");
  const start = parseDateInput(period.start);
  if (start === undefined)
    fail("INVALID_DATE_RANGE", "start", "start must be an ISO 8601 date, epoch milliseconds or a Date");
  const end = parseDateInput(period.end);
  if (end === undefined)
    fail("INVALID_DATE_RANGE", "end", "end must be an ISO 8601 date, epoch milliseconds or a Date");
  if (start >= end) fail("INVALID_DATE_RANGE", "period", "start must be strictly before end");
  if (!hasScopeId(options))
    fail("MISSING_SCOPE", undefined, "A compliance report needs an organizationId or a memorySpaceId");
  checkScopeIds(options);
  return { scope: pickScope(options), start, end };
}

const PERIOD_MS: Record<StatsPeriod, number> = {
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
  "1y": YEAR_MS,
};

/** getEnforcementStats: exactly 7d, 30d, 90d or 1y; returns the window length. */
export function validateStatsPeriod(period: unknown): { period: StatsPeriod; windowMs: number } {
  if (!(STATS_PERIODS as readonly unknown[]).includes(period)) {
    fail(
      "INVALID_PERIOD",
      "period",
      `period must be one of ${STATS_PERIODS.join(", ")}, got ${JSON.stringify(period) ?? "nothing"}`,
    );
  }
  const p = period as StatsPeriod;
  return { period: p, windowMs: PERIOD_MS[p] };
}

/** getTemplate: case-sensitive GDPR, HIPAA, SOC2 or FINRA ("Custom" has no template). */
export function validateTemplateName(name: unknown): asserts name is TemplateName {
  if (!isTemplateName(name)) {
    fail(
      "INVALID_COMPLIANCE_MODE",
      "name",
      `Unknown compliance template ${JSON.stringify(name) ?? "undefined"}; templates: ${TEMPLATE_NAMES.join(", ")}`,
    );
  }
}
