// Enforcement of the organization's records (SPEC §5.4): immutable version trimming, byType
// deleteAfter and purgeUnusedAfter; mutable TTL (own and defaultTTL), purgeInactiveAfter and
// deleteUnaccessedAfter.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { DAY_MS, HOUR_MS } from "~/governance/durations";
import { counts, enforce, immutableVersions, orgPolicy, putImmutable, setPolicy } from "./app-support";
import { askedTwiceAtOnce, rowsOf } from "../support/store";
import { GOVERNANCE_LAYERS } from "~/governance/operations.schema";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const immutableRules = (byType: Record<string, unknown>, ...more: [string, unknown][]) =>
  orgPolicy("GDPR", ["immutable.retention.defaultVersions", 2], ["immutable.retention.byType", byType], ...more);

describe("immutable records", () => {
  test("autoCleanupVersions keeps byType versionsToKeep, else defaultVersions, newest first", async () => {
    await setPolicy(t, immutableRules({ contract: { versionsToKeep: 1 }, policy: { versionsToKeep: -1 } }));
    await putImmutable(t, "note/1", 4);
    await putImmutable(t, "contract/1", 3);
    await putImmutable(t, "policy/1", 3);
    const result = await enforce(t);
    expect([result.versionsDeleted, result.recordsPurged]).toEqual([2 + 2, 0]);
    expect(await immutableVersions(t, "note/1")).toEqual([4, 3]);
    expect(await immutableVersions(t, "contract/1")).toEqual([3]);
    expect(await immutableVersions(t, "policy/1")).toEqual([3, 2, 1]);
    expect((await t.get("/immutable/note/1")).body).toMatchObject({ version: 4, current_version: 4, data: { n: 3 } });
    expect((await t.get("/immutable/note/1?version=1")).status).toBe(404);
  });

  test("without autoCleanupVersions every version stays", async () => {
    await setPolicy(t, immutableRules({}, ["immutable.purging.autoCleanupVersions", false]));
    await putImmutable(t, "note/1", 4);
    expect((await enforce(t)).versionsDeleted).toBe(0);
    expect(await immutableVersions(t, "note/1")).toEqual([4, 3, 2, 1]);
  });

  test("an entity older than its type's deleteAfter is deleted with all its versions", async () => {
    await setPolicy(t, immutableRules({ contract: { versionsToKeep: -1, deleteAfter: "30d" } }));
    await putImmutable(t, "contract/old", 3);
    t.clock.advance(10 * DAY_MS);
    await putImmutable(t, "contract/young");
    await putImmutable(t, "note/1");
    t.clock.advance(20 * DAY_MS);
    const result = await enforce(t);
    expect([result.recordsPurged, result.versionsDeleted]).toEqual([1, 0]);
    expect((await t.get("/immutable/contract/old")).status).toBe(404);
    expect(await counts(t)).toMatchObject({ immutable: 2, immutableVersions: 2 });
  });

  test("purgeUnusedAfter deletes entities neither read nor written for that long", async () => {
    await setPolicy(t, immutableRules({}, ["immutable.purging.purgeUnusedAfter", "90d"]));
    await putImmutable(t, "note/read");
    await putImmutable(t, "note/listed");
    await putImmutable(t, "note/written");
    await putImmutable(t, "note/unused");
    t.clock.advance(60 * DAY_MS);
    expect((await t.get("/immutable/note/read")).status).toBe(200);
    expect((await t.get("/immutable/note/listed/versions")).status).toBe(200);
    await putImmutable(t, "note/written");
    t.clock.advance(30 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect((await t.get("/immutable/note/unused")).status).toBe(404);
    expect((await enforce(t, { scope: { organizationId: "default" }, rules: ["retention"] })).recordsPurged).toBe(0);
  });
});

describe("mutable keys", () => {
  const put = async (key: string, body: Record<string, unknown> = {}) =>
    expect((await t.request("PUT", `/mutable/ns/${key}`, { value: key, ...body })).status).toBe(200);
  const keys = async () =>
    (await rowsOf<{ key: string }>(t, "SELECT key FROM mutable_entries ORDER BY key")).map((r) => r.key);

  test("keys past their own ttl or expiresAt are deleted", async () => {
    await put("ttl", { ttl: "1h" });
    await put("at", { expiresAt: t.clock.now() + 2 * HOUR_MS });
    await put("forever");
    t.clock.advance(HOUR_MS);
    expect((await t.get("/mutable/ns/ttl")).status).toBe(404);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect(await keys()).toEqual(["at", "forever"]);
  });

  test("defaultTTL applies from the last update to keys without their own expiry", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["mutable.retention.defaultTTL", "1d"]));
    await put("plain");
    await put("own", { expiresAt: t.clock.now() + 10 * DAY_MS });
    await put("updated");
    t.clock.advance(12 * HOUR_MS);
    await put("updated");
    t.clock.advance(12 * HOUR_MS);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect(await keys()).toEqual(["own", "updated"]);
  });

  test("purgeInactiveAfter deletes keys not updated for that long, reads notwithstanding", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["mutable.retention.purgeInactiveAfter", "30d"]));
    await put("read");
    await put("written");
    t.clock.advance(20 * DAY_MS);
    expect((await t.get("/mutable/ns/read")).status).toBe(200);
    await put("written");
    t.clock.advance(10 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect(await keys()).toEqual(["written"]);
  });

  test("with autoDelete, keys not read for deleteUnaccessedAfter are deleted", async () => {
    await setPolicy(
      t,
      orgPolicy("GDPR", ["mutable.purging.autoDelete", true], ["mutable.purging.deleteUnaccessedAfter", "10d"]),
    );
    await put("early");
    await put("late");
    t.clock.advance(5 * DAY_MS);
    await t.get("/mutable/ns/early");
    t.clock.advance(5 * DAY_MS);
    await t.get("/mutable/ns/late");
    t.clock.advance(6 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect(await keys()).toEqual(["late"]);
  });

  test("without autoDelete, deleteUnaccessedAfter deletes nothing", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["mutable.purging.deleteUnaccessedAfter", "10d"]));
    await put("never-read");
    t.clock.advance(30 * DAY_MS);
    expect((await enforce(t)).recordsPurged).toBe(0);
  });

  test("a memory-space scope leaves the organization's records alone", async () => {
    await put("ttl", { ttl: "1h" });
    await putImmutable(t, "note/1", 30);
    t.clock.advance(DAY_MS);
    expect(await enforce(t, { scope: { memorySpaceId: "mcp-agent" } })).toMatchObject({
      versionsDeleted: 0,
      recordsPurged: 0,
    });
    expect(await enforce(t, { scope: { organizationId: "default" }, layers: ["immutable"] })).toMatchObject({
      versionsDeleted: 10,
      recordsPurged: 0,
      affectedLayers: ["immutable"],
    });
    expect(await enforce(t, { scope: { organizationId: "default" }, layers: ["mutable"] })).toMatchObject({
      versionsDeleted: 0,
      recordsPurged: 1,
      affectedLayers: ["mutable"],
    });
  });
});

describe("one run per request", () => {
  test("an enforcement asked twice at once runs once: both callers get that run's result, and the log holds one row", async () => {
    expect((await t.request("PUT", "/mutable/ns/ttl", { value: "v", ttl: "1h" })).status).toBe(200);
    await putImmutable(t, "note/1", 30);
    t.clock.advance(DAY_MS);
    // The test holds the enforcement lock while both requests arrive, so neither can run before the other asks.
    const [first, second] = await askedTwiceAtOnce(
      t.services.store,
      "enforcement",
      () => enforce(t),
      () => rowsOf(t, "SELECT count(*) AS n FROM enforcement_log"),
    );
    expect(first).toMatchObject({ versionsDeleted: 10, recordsPurged: 1, affectedLayers: [...GOVERNANCE_LAYERS] });
    expect(second).toEqual(first!);
    expect(await rowsOf(t, "SELECT count(*) AS n FROM enforcement_log")).toEqual([{ n: 1 }]);
    // A request that arrives after the run ended runs again.
    expect((await enforce(t)).recordsPurged).toBe(0);
    expect(await rowsOf(t, "SELECT count(*) AS n FROM enforcement_log")).toEqual([{ n: 2 }]);
  });
});
