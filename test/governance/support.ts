// Helpers shared by the governance tests: a valid policy to mutate, and an assertion on
// GovernanceValidationError's code and field.

import { expect } from "bun:test";
import { GovernanceValidationError } from "~/shared/errors";
import type { GovernancePolicy, PolicyRules } from "~/governance/policy.schema";
import { getTemplate } from "~/governance/templates";

export const validPolicy = (): GovernancePolicy => ({ organizationId: "org-1", ...getTemplate("GDPR") });

/** Deep copy of `base` with the dotted `path` set to `value` (undefined deletes the key). */
export function withValue<T>(base: T, path: string, value: unknown): T {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split(".");
  const last = keys.pop() as string;
  let cur: Record<string, unknown> = copy;
  for (const k of keys) cur = cur[k] as Record<string, unknown>;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  return copy as T;
}

export function expectGovernanceError(run: () => unknown, code: string, field?: string): GovernanceValidationError {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(GovernanceValidationError);
  const err = caught as GovernanceValidationError;
  expect({ name: err.name, code: err.code, field: err.field }).toEqual({
    name: "GovernanceValidationError",
    code,
    field,
  } as never);
  expect(err.message.length).toBeGreaterThan(10);
  return err;
}

/** The fixed "now" of planner tests, and helpers to place timestamps before it. */
export const NOW = Date.UTC(2026, 0, 1);
export const ago = (ms: number) => NOW - ms;

/** A template (scope-free) with dotted-path changes applied. */
export function rulesFrom(template: string, ...changes: [string, unknown][]): PolicyRules {
  return changes.reduce((p, [path, v]) => withValue(p, path, v), getTemplate(template));
}
