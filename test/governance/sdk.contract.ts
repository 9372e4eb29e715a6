// The governance SDK contract (SPEC §5.6–5.7): run against createEngram (in-process) and
// createClient (HTTP); both must answer and fail identically for the same calls.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { AppError, GovernanceValidationError, type EngramClient } from "~/index";
import type { FakeClock } from "~/shared/clock";
import { GOVERNANCE_ERROR_CODES } from "~/shared/errors";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { TEMPLATE_ROWS, TEMPLATE_TABLE, VALIDATION_CASES } from "./sdk-cases";

/** The organization the harness's caller belongs to: every governance call is its (SPEC §8). */
export const ORG = "acme";

export interface SdkHarness {
  client: EngramClient;
  clock: FakeClock;
  close(): Promise<void>;
}

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}

export function governanceSdkContract(name: string, make: () => Promise<SdkHarness>) {
  describe(`governance SDK contract: ${name}`, () => {
    let h: SdkHarness;
    let g: EngramClient["governance"];
    beforeEach(async () => {
      h = await make();
      g = h.client.governance;
    });
    afterEach(() => h.close());

    const policy = async (organizationId: string, template: string, extra: Record<string, unknown> = {}) =>
      ({ organizationId, ...(await g.getTemplate(template)), ...extra }) as never;

    test.each(VALIDATION_CASES)(
      "%s throws GovernanceValidationError with its code and field",
      async (_label, call, code, field) => {
        const e = await caught(call(h.client));
        expect(e).toBeInstanceOf(GovernanceValidationError);
        const err = e as GovernanceValidationError;
        expect({ name: err.name, code: err.code, field: err.field }).toEqual({
          name: "GovernanceValidationError",
          code,
          field,
        } as never);
        expect(err.message.length).toBeGreaterThan(10);
      },
    );

    test("the validation cases cover every code of SPEC §5.6 and every operation", () => {
      expect(new Set(VALIDATION_CASES.map((c) => c[2]))).toEqual(new Set(GOVERNANCE_ERROR_CODES));
      const ops = new Set(VALIDATION_CASES.map((c) => c[0].split(" ")[0]));
      expect(ops).toEqual(
        new Set([
          "setPolicy",
          "setAgentOverride",
          "getTemplate",
          "enforce",
          "simulate",
          "getComplianceReport",
          "getEnforcementStats",
          "getPolicy",
          "removePolicy",
        ]),
      );
    });

    test.each(Object.keys(TEMPLATE_TABLE))(
      "the %s template has the values of the SPEC table and the seed's session defaults",
      async (mode) => {
        const t = await g.getTemplate(mode);
        expect(TEMPLATE_ROWS(t)).toEqual(TEMPLATE_TABLE[mode]!);
        expect(t.compliance.mode).toBe(mode);
        expect(t.sessions).toEqual({
          lifecycle: { idleTimeout: "30m", maxDuration: "24h", autoExtend: true },
          cleanup: { autoExpireIdle: true },
        });
      },
    );

    test("a template spread into setPolicy is accepted and the result names the scope", async () => {
      const result = await g.setPolicy(await policy("acme", "SOC2"));
      expect(result).toEqual({
        success: true,
        policyId: expect.any(String),
        appliedAt: h.clock.now(),
        scope: { organizationId: "acme" },
      });
      const space = await g.setPolicy({ memorySpaceId: "bot", ...(await g.getTemplate("GDPR")) } as never);
      expect(space.scope).toEqual({ memorySpaceId: "bot" });
      expect(space.policyId).not.toBe(result.policyId);
    });

    test("getPolicy without a scope is the global defaults (the GDPR template)", async () => {
      expect(await g.getPolicy()).toEqual(await g.getTemplate("GDPR"));
      expect(await g.getPolicy({ organizationId: ORG })).toEqual({
        organizationId: ORG,
        ...(await g.getTemplate("GDPR")),
      });
    });

    test("every operation naming another organization fails with NOT_FOUND, as another organization's ids do", async () => {
      const gdpr = await g.getTemplate("GDPR");
      const period = { start: "2026-01-01", end: "2026-07-01" };
      for (const call of [
        () => g.getPolicy({ organizationId: "nobody" }),
        () => g.getPolicy({ organizationId: "nobody", memorySpaceId: "bot" }),
        () => g.setPolicy({ organizationId: "nobody", ...gdpr }),
        () => g.setPolicy({ organizationId: "nobody", memorySpaceId: "bot", ...gdpr }),
        () => g.removePolicy({ organizationId: "nobody" }),
        () => g.setAgentOverride("bot", { organizationId: "nobody" }),
        () => g.enforce({ scope: { organizationId: "nobody" } }),
        () => g.simulate({ organizationId: "nobody" }),
        () => g.getComplianceReport({ organizationId: "nobody", period }),
      ]) {
        const e = (await caught(call())) as AppError;
        expect(e).toBeInstanceOf(AppError);
        expect({ code: e.code, message: e.message }).toEqual({
          code: "NOT_FOUND",
          message: "organization 'nobody' not found",
        });
      }
      expect(await g.getPolicy({ memorySpaceId: "bot" })).toEqual({ memorySpaceId: "bot", ...gdpr });
    });

    test("getPolicy answers a copy the caller may change without changing the next answer", async () => {
      await g.setPolicy(await policy("acme", "SOC2"));
      for (const scope of [{ organizationId: "acme" }, { memorySpaceId: "bot", organizationId: "acme" }]) {
        const first = await g.getPolicy(scope);
        first.compliance.mode = "HIPAA";
        first.conversations.retention.deleteAfter = "1d";
        const again = await g.getPolicy(scope);
        expect([again.compliance.mode, again.conversations.retention.deleteAfter]).toEqual([
          "SOC2",
          (await g.getTemplate("SOC2")).conversations.retention.deleteAfter,
        ]);
      }
    });

    test("precedence is global defaults, then the mode's template, then the org policy, then the space override", async () => {
      const gdpr = await g.getTemplate("GDPR");
      const { archiveAfter: _a, ...retention } = gdpr.conversations.retention;
      const org = {
        ...gdpr,
        organizationId: "acme",
        compliance: { ...gdpr.compliance, mode: "HIPAA" },
        conversations: { retention: { ...retention, deleteAfter: "5y" }, purging: { autoDelete: true } },
      };
      await g.setPolicy(org as never);
      const effective = await g.getPolicy({ organizationId: "acme" });
      expect(effective.organizationId).toBe("acme");
      expect(effective.conversations).toEqual({
        retention: { deleteAfter: "5y", archiveAfter: "1y", purgeOnUserRequest: true }, // org, global, org
        purging: { autoDelete: true, deleteInactiveAfter: "6y" }, // org, HIPAA template
      });
      expect(effective.immutable.retention.byType["medical-record"]).toEqual({ versionsToKeep: -1 }); // template map entries merge in
      expect(effective.vector.retention.defaultVersions).toBe(10); // the org's own value beats the template's 20
      await g.setAgentOverride("bot", { organizationId: "acme", conversations: { retention: { deleteAfter: "3y" } } });
      const space = await g.getPolicy({ memorySpaceId: "bot" });
      expect(space.memorySpaceId).toBe("bot");
      expect(space.conversations.retention).toEqual({
        deleteAfter: "3y",
        archiveAfter: "1y",
        purgeOnUserRequest: true,
      });
      const rest = (p: object) => ({
        ...p,
        organizationId: undefined,
        memorySpaceId: undefined,
        conversations: undefined,
      });
      expect(rest(space)).toEqual(rest(effective));
      expect(await g.getPolicy({ organizationId: "acme", memorySpaceId: "bot" })).toEqual({
        organizationId: "acme",
        ...space,
      });
    });

    test("removePolicy takes a scope back to the next level and says whether there was a policy", async () => {
      await g.setPolicy(await policy("acme", "FINRA"));
      await g.setAgentOverride("bot", { organizationId: "acme", vector: { retention: { defaultVersions: 4 } } });
      expect(await g.removePolicy({ memorySpaceId: "bot" })).toEqual({ success: true, removed: true });
      const space = await g.getPolicy({ memorySpaceId: "bot" });
      expect([space.compliance.mode, space.vector.retention.defaultVersions]).toEqual(["FINRA", 30]);
      expect(await g.removePolicy({ organizationId: "acme" })).toEqual({ success: true, removed: true });
      expect(await g.getPolicy({ organizationId: "acme" })).toEqual({
        organizationId: "acme",
        ...(await g.getTemplate("GDPR")),
      });
      expect(await g.removePolicy({ organizationId: "acme" })).toEqual({ success: true, removed: false });
    });

    test("setPolicy replaces the scope's active policy", async () => {
      await g.setPolicy(await policy("acme", "GDPR"));
      await g.setPolicy(await policy("acme", "SOC2"));
      expect((await g.getPolicy({ organizationId: "acme" })).compliance.mode).toBe("SOC2");
    });

    test("setAgentOverride deep-merges successive partials and returns nothing", async () => {
      expect(await g.setAgentOverride("bot", { vector: { retention: { defaultVersions: 3 } } })).toBeUndefined();
      await g.setAgentOverride("bot", {
        vector: { purging: { deleteOrphaned: true } },
        conversations: { retention: { archiveAfter: null as never } },
      });
      await g.setAgentOverride("bot", { vector: { retention: { bySourceType: { a2a: 2 } } } });
      const p = await g.getPolicy({ memorySpaceId: "bot" });
      const defaults = await g.getTemplate("GDPR");
      expect(p.vector).toEqual({
        retention: { ...defaults.vector.retention, defaultVersions: 3, bySourceType: { a2a: 2 } },
        purging: { autoCleanupVersions: true, deleteOrphaned: true },
      });
      expect(p.conversations.retention.archiveAfter).toBeNull();
    });

    test("space ids with slashes, spaces and non-ASCII letters round-trip", async () => {
      for (const [i, space] of ["team/alpha", "a b", "café"].entries()) {
        await g.setAgentOverride(space, { vector: { retention: { defaultVersions: i + 2 } } });
        expect((await g.getPolicy({ memorySpaceId: space })).vector.retention.defaultVersions).toBe(i + 2);
      }
    });

    test("an override's mutable and compliance parts do not change the space's policy", async () => {
      await g.setAgentOverride("bot", { compliance: { mode: "FINRA" }, mutable: { purging: { autoDelete: true } } });
      const p = await g.getPolicy({ memorySpaceId: "bot" });
      expect([p.compliance.mode, p.mutable.purging.autoDelete]).toEqual(["GDPR", false]);
    });

    test("a memory space is its caller's organization's: its policy builds on that organization's policy", async () => {
      await g.setPolicy(await policy(ORG, "FINRA"));
      expect((await g.getPolicy({ memorySpaceId: "bot" })).compliance.mode).toBe("FINRA");
      await g.setAgentOverride("bot", { organizationId: ORG, vector: { retention: { defaultVersions: 4 } } });
      const bot = await g.getPolicy({ memorySpaceId: "bot" });
      expect([bot.compliance.mode, bot.vector.retention.defaultVersions]).toEqual(["FINRA", 4]);
      expect((await g.getPolicy({ memorySpaceId: "other" })).vector.retention.defaultVersions).toBe(30);
    });

    test("justification is required only once a policy is set, and only at the listed importances", async () => {
      const add = (importance: number, extra: Record<string, unknown> = {}) =>
        h.client.addMemories({ user_id: "u", memory: "a critical fact", metadata: { importance, ...extra } });
      expect((await add(95)).success).toBe(true);
      await g.setPolicy(await policy("acme", "GDPR"));
      const e = (await caught(add(90))) as AppError;
      expect(e).toBeInstanceOf(AppError);
      expect([e.code, e.field]).toEqual(["VALIDATION_ERROR", "metadata.justification"]);
      expect(((await caught(add(100, { justification: "  " }))) as AppError).field).toBe("metadata.justification");
      expect((await add(90, { justification: "regulator asked" })).memory_ids).toHaveLength(1);
      expect((await add(89)).memory_ids).toHaveLength(1);
    });

    test("enforce trims versions that simulate predicted, and stats add them up", async () => {
      const [id] = (await h.client.addMemories({ user_id: "u", memory: "v1", metadata: { importance: 10 } }))
        .memory_ids;
      for (const v of ["v2", "v3", "v4"]) {
        h.clock.advance(DAY_MS);
        await h.client.updateMemory({ user_id: "u", memory_id: id!, memory: v });
      }
      const impact = await g.simulate({});
      expect([impact.versionsAffected, impact.recordsAffected, impact.breakdown.vector.affected]).toEqual([3, 0, 3]);
      expect(impact.storageFreed).toBeGreaterThan(0);
      expect(impact.costSavings).toBe(Math.round(impact.storageFreed * 0.0001 * 1e6) / 1e6);
      const result = await g.enforce({ scope: { organizationId: "acme" } });
      expect(result).toEqual({
        enforcedAt: h.clock.now(),
        versionsDeleted: 3,
        recordsPurged: 0,
        storageFreed: impact.storageFreed,
        affectedLayers: ["conversations", "immutable", "mutable", "vector"],
      });
      expect((await g.simulate({})).versionsAffected).toBe(0);
      h.clock.advance(DAY_MS);
      const stats = await g.getEnforcementStats({ period: "7d" });
      expect(stats.period).toEqual({ start: h.clock.now() - 7 * DAY_MS, end: h.clock.now() });
      expect(stats.vector).toEqual({ versionsDeleted: 3, memoriesPurged: 0 });
      expect(stats.storageFreed).toBe(impact.storageFreed);
    });

    test("FINRA minimum retention refuses a user's delete and keeps delete_all's memories", async () => {
      await g.setPolicy(await policy("acme", "FINRA"));
      const [id] = (
        await h.client.addMemories({ user_id: "u", memory: "trade 1", metadata: { justification: "trade record" } })
      ).memory_ids;
      const e = (await caught(h.client.deleteMemory({ user_id: "u", memory_id: id! }))) as AppError;
      expect([e.constructor, e.code]).toEqual([AppError, "CONFLICT"]);
      expect(await h.client.deleteAllMemories({ user_id: "u" })).toEqual({
        success: true,
        deleted_count: 0,
        retained: { vector: 1 },
      });
      h.clock.advance(7 * YEAR_MS);
      expect(await h.client.deleteMemory({ user_id: "u", memory_id: id! })).toEqual({
        success: true,
        deleted_count: 1,
      });
    });
  });
}
