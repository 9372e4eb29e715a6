// Deep merge of policies and the effective-policy hierarchy of SPEC §5.3: global defaults
// (GDPR) → template named by the org's compliance.mode → org policy → space override. Pure.

import type { GovernancePolicyPatch, PolicyRules } from "./policy.schema";
import { isTemplateName } from "./policy.schema";
import { getTemplate, globalDefaults } from "./templates";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function mergeValue(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (!isObj(patch)) return structuredClone(patch); // scalars, null and arrays replace
  const out: Obj = isObj(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    // JSON.parse yields an own "__proto__" key; assigning it would swap the prototype.
    if (key === "__proto__" || value === undefined) continue;
    out[key] = mergeValue(out[key], value);
  }
  return out;
}

/**
 * Objects merge recursively; arrays, scalars and null replace; undefined is ignored.
 * Returns a fresh value: neither input is modified or shared with the result.
 */
export function deepMerge<T>(base: T, ...patches: unknown[]): T {
  return patches.reduce<unknown>((acc, patch) => mergeValue(acc, patch), structuredClone(base)) as T;
}

/** The sections a memory-space override may change (SPEC §5.3 / seed: not mutable, not compliance). */
export const OVERRIDABLE_SECTIONS = ["conversations", "immutable", "vector", "sessions"] as const;

const withoutScope = (p: GovernancePolicyPatch | null | undefined): GovernancePolicyPatch => {
  if (!p) return {};
  const { organizationId: _org, memorySpaceId: _space, ...rules } = p;
  return rules;
};

const overridable = (p: GovernancePolicyPatch | null | undefined): GovernancePolicyPatch => {
  const out: Obj = {};
  for (const s of OVERRIDABLE_SECTIONS) if (p?.[s] !== undefined) out[s] = p[s];
  return out;
};

export interface PolicyLevels {
  /** The organization's active policy (complete when set through setPolicy). */
  org?: GovernancePolicyPatch | null;
  /** The memory space's accumulated override; its mutable and compliance parts are ignored. */
  space?: GovernancePolicyPatch | null;
}

/** The policy that governs a scope; without levels, the global defaults. Never carries scope ids. */
export function effectivePolicy(levels: PolicyLevels = {}): PolicyRules {
  const mode = levels.org?.compliance?.mode;
  const template = isTemplateName(mode) ? getTemplate(mode) : undefined;
  return deepMerge(globalDefaults(), template, withoutScope(levels.org), overridable(levels.space));
}

/** A partial policy over an effective one (simulate, or accumulating overrides); scope ids dropped. */
export const applyPatch = (base: PolicyRules, patch: GovernancePolicyPatch | null | undefined): PolicyRules =>
  deepMerge(base, withoutScope(patch));
