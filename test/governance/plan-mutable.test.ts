import { describe, expect, test } from "bun:test";
import { DAY_MS, HOUR_MS, YEAR_MS } from "~/governance/durations";
import { planMutableBatch, type MutableSummary } from "~/governance/plan";
import { NOW, ago, rulesFrom } from "./support";

const key = (k: string, extra: Partial<MutableSummary> = {}): MutableSummary => ({
  namespace: "ns",
  key: k,
  createdAt: ago(DAY_MS),
  updatedAt: ago(DAY_MS),
  bytes: 7,
  ...extra,
});
const keysOf = (plan: ReturnType<typeof planMutableBatch>) => plan.deleteKeys.map((k) => `${k.key}:${k.reason}`);

// GDPR: defaultTTL null, purgeInactiveAfter 2y, autoDelete false.
const gdpr = { policy: rulesFrom("GDPR"), now: NOW };

describe("planMutableBatch: retention (TTL)", () => {
  test("a key past its own expiresAt is deleted; one expiring later is kept", () => {
    const plan = planMutableBatch(gdpr, [key("gone", { expiresAt: ago(1) }), key("soon", { expiresAt: NOW + 1 })]);
    expect(plan).toEqual({
      deleteKeys: [{ namespace: "ns", key: "gone", bytes: 7, reason: "retention.ttl", dueAt: ago(1) }],
      held: 0,
    });
  });

  test("defaultTTL applies from the last update to keys without their own expiry", () => {
    const policy = rulesFrom("GDPR", ["mutable.retention.defaultTTL", "1h"]);
    const plan = planMutableBatch({ policy, now: NOW }, [
      key("stale", { updatedAt: ago(2 * HOUR_MS) }),
      key("fresh", { updatedAt: ago(HOUR_MS - 1) }),
      key("own", { updatedAt: ago(2 * HOUR_MS), expiresAt: NOW + HOUR_MS }),
    ]);
    expect(plan.deleteKeys).toEqual([
      { namespace: "ns", key: "stale", bytes: 7, reason: "retention.ttl", dueAt: ago(HOUR_MS) },
    ]);
  });

  test("with defaultTTL null a key without its own expiry never expires", () => {
    expect(planMutableBatch(gdpr, [key("k", { updatedAt: ago(YEAR_MS) })]).deleteKeys).toEqual([]);
  });

  test("with only the purging rule, TTLs are not applied", () => {
    expect(planMutableBatch({ ...gdpr, rules: ["purging"] }, [key("gone", { expiresAt: ago(1) })]).deleteKeys).toEqual(
      [],
    );
  });
});

describe("planMutableBatch: purging", () => {
  test("a key not updated for purgeInactiveAfter is deleted", () => {
    const plan = planMutableBatch(gdpr, [key("idle", { updatedAt: ago(2 * YEAR_MS + DAY_MS) }), key("busy")]);
    expect(plan.deleteKeys).toEqual([
      { namespace: "ns", key: "idle", bytes: 7, reason: "purging.purgeInactiveAfter", dueAt: ago(DAY_MS) },
    ]);
    expect(
      planMutableBatch({ ...gdpr, rules: ["retention"] }, [key("idle", { updatedAt: ago(3 * YEAR_MS) })]).deleteKeys,
    ).toEqual([]);
  });

  test("deleteUnaccessedAfter applies only when autoDelete", () => {
    const unread = key("unread", { updatedAt: ago(40 * DAY_MS), accessedAt: ago(31 * DAY_MS) });
    const neverRead = key("never", { updatedAt: ago(31 * DAY_MS), accessedAt: null });
    const read = key("read", { updatedAt: ago(40 * DAY_MS), accessedAt: ago(DAY_MS) });
    const off = rulesFrom("GDPR", ["mutable.purging.deleteUnaccessedAfter", "30d"]);
    expect(planMutableBatch({ policy: off, now: NOW }, [unread, neverRead, read]).deleteKeys).toEqual([]);
    const on = rulesFrom(
      "GDPR",
      ["mutable.purging.deleteUnaccessedAfter", "30d"],
      ["mutable.purging.autoDelete", true],
    );
    expect(keysOf(planMutableBatch({ policy: on, now: NOW }, [unread, neverRead, read]))).toEqual([
      "unread:purging.deleteUnaccessedAfter",
      "never:purging.deleteUnaccessedAfter",
    ]);
  });
});

describe("planMutableBatch: minimum retention", () => {
  test("HIPAA keeps an expired key whose value is younger than 6 years", () => {
    const policy = rulesFrom("HIPAA");
    const plan = planMutableBatch({ policy, now: NOW }, [
      key("young", { expiresAt: ago(1) }),
      key("old", { updatedAt: ago(6 * YEAR_MS), expiresAt: ago(1) }),
    ]);
    expect(keysOf(plan)).toEqual(["old:retention.ttl"]);
    expect(plan.held).toBe(1);
  });
});
