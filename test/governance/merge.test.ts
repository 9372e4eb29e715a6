import { describe, expect, test } from "bun:test";
import { applyPatch, deepMerge, effectivePolicy } from "~/governance/merge";
import { getTemplate, globalDefaults } from "~/governance/templates";
import { validPolicy, withValue } from "./support";

describe("deepMerge", () => {
  test("objects merge recursively; arrays, scalars and null replace; undefined is ignored", () => {
    const base = { a: { b: 1, c: [1, 2], d: "x" }, e: 5, f: { g: 1 } };
    const patch = { a: { c: [3], d: undefined }, e: null, f: { h: 2 } };
    expect(deepMerge(base, patch)).toEqual({ a: { b: 1, c: [3], d: "x" }, e: null, f: { g: 1, h: 2 } } as never);
  });

  test("later patches win and inputs are never modified or shared", () => {
    const base = { a: { list: [1] } };
    const p1 = { a: { n: 1 } };
    const out = deepMerge(base, p1, { a: { n: 2 } });
    expect(out).toEqual({ a: { list: [1], n: 2 } } as never);
    out.a.list.push(9);
    expect(base).toEqual({ a: { list: [1] } });
    expect(p1).toEqual({ a: { n: 1 } });
  });

  test("an own __proto__ key from JSON cannot change the prototype", () => {
    const out = deepMerge({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(out.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("effectivePolicy", () => {
  test("without any level it is the global defaults (GDPR)", () => {
    expect(effectivePolicy()).toEqual(globalDefaults());
  });

  test("the template named by the org's mode sits between the defaults and the org policy", () => {
    const org = { organizationId: "o", compliance: { mode: "HIPAA" } };
    const p = effectivePolicy({ org });
    expect(p.vector.retention.byImportance).toEqual(getTemplate("HIPAA").vector.retention.byImportance);
    expect(p.conversations.retention.deleteAfter).toBe("6y");
    // byType maps merge: GDPR's kb-article survives under HIPAA's types.
    expect(Object.keys(p.immutable.retention.byType).sort()).toEqual([
      "audit-log",
      "kb-article",
      "medical-record",
      "policy",
    ]);
    // The template's archiveAfter is absent, so the defaults' 1y shows through.
    expect(p.conversations.retention.archiveAfter).toBe("1y");
  });

  test("the org policy beats its template, and the space override beats the org", () => {
    const org = withValue(withValue(validPolicy(), "compliance.mode", "SOC2"), "vector.retention.defaultVersions", 7);
    const space = { vector: { retention: { defaultVersions: 3 } }, sessions: { lifecycle: { idleTimeout: "5m" } } };
    expect(effectivePolicy({ org }).vector.retention.defaultVersions).toBe(7);
    const p = effectivePolicy({ org, space });
    expect(p.vector.retention.defaultVersions).toBe(3);
    expect(p.sessions?.lifecycle).toEqual({ idleTimeout: "5m", maxDuration: "24h", autoExtend: true });
    expect(p.compliance.mode).toBe("SOC2");
  });

  test("a Custom org gets no template layer", () => {
    const org = { compliance: { mode: "Custom" }, vector: { retention: { defaultVersions: 4 } } };
    const p = effectivePolicy({ org });
    expect(p.vector.retention.byImportance).toEqual(getTemplate("GDPR").vector.retention.byImportance);
    expect(p.vector.retention.defaultVersions).toBe(4);
  });

  test("a space override cannot change mutable or compliance settings", () => {
    const space = { mutable: { purging: { autoDelete: true } }, compliance: { mode: "FINRA" } };
    const p = effectivePolicy({ space });
    expect(p.mutable.purging.autoDelete).toBe(false);
    expect(p.compliance.mode).toBe("GDPR");
  });

  test("the result never carries scope ids", () => {
    const p = effectivePolicy({ org: validPolicy(), space: { memorySpaceId: "s" } }) as Record<string, unknown>;
    expect(p.organizationId).toBeUndefined();
    expect(p.memorySpaceId).toBeUndefined();
  });
});

describe("applyPatch", () => {
  test("merges a simulate partial over an effective policy, dropping scope ids", () => {
    const p = applyPatch(globalDefaults(), {
      organizationId: "o",
      vector: { purging: { deleteOrphaned: true } },
    }) as Record<string, unknown>;
    expect(p.organizationId).toBeUndefined();
    expect((p as ReturnType<typeof globalDefaults>).vector.purging).toEqual({
      autoCleanupVersions: true,
      deleteOrphaned: true,
    });
  });
});
