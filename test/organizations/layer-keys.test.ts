// Organizations (SPEC §8) and the org-wide layers: an immutable record's (type, id) and a mutable key's
// (namespace, key) belong to one organization each, so two organizations may hold the same key without
// learning of each other (no 409 that reveals it, no row-security refusal). Both stores (ENGRAM_TEST_STORE).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { type OrgScope, userScopeOf } from "~/shared/principal";

const A: OrgScope = { org: "default" };
const B: OrgScope = { org: "acme" };
const failure = (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message });

describe("organizations: immutable records and mutable keys", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ embedder: null });
  }, 60_000);
  afterAll(() => t?.close());

  test("two organizations each write the same immutable (type, id) and each reads only its own versions", async () => {
    const im = t.services.immutable;
    expect((await im.put(A, "policy", "p1", { data: { by: "A", n: 1 } })).version).toBe(1);
    expect((await im.put(B, "policy", "p1", { data: { by: "B", n: 1 } })).version).toBe(1);
    expect((await im.put(A, "policy", "p1", { data: { by: "A", n: 2 } })).version).toBe(2);
    const a = await im.get(A, "policy", "p1");
    const b = await im.get(B, "policy", "p1");
    expect([a.data, a.current_version, b.data, b.current_version]).toEqual([
      { by: "A", n: 2 },
      2,
      { by: "B", n: 1 },
      1,
    ]);
    expect((await im.versions(A, "policy", "p1")).versions.map((v) => v.data)).toEqual([
      { by: "A", n: 2 },
      { by: "A", n: 1 },
    ]);
    expect((await im.versions(B, "policy", "p1")).versions.map((v) => v.data)).toEqual([{ by: "B", n: 1 }]);
    expect(await im.get(B, "policy", "p1", 2).catch(failure)).toEqual({
      code: "NOT_FOUND",
      message: "version 'policy/p1@2' not found",
    });
  });

  test("an immutable record of another organization only is NOT_FOUND, not a conflict", async () => {
    await t.services.immutable.put(A, "contract", "c9", { data: "A's" });
    const missing = { code: "NOT_FOUND", message: "record 'contract/c9' not found" };
    expect(await t.services.immutable.get(B, "contract", "c9").catch(failure)).toEqual(missing);
    expect(await t.services.immutable.versions(B, "contract", "c9").catch(failure)).toEqual(missing);
  });

  test("two organizations each write the same mutable (namespace, key) and neither overwrites nor deletes the other's", async () => {
    const mu = t.services.mutable;
    await mu.put(A, "prefs", "theme", { value: "dark" });
    await mu.put(B, "prefs", "theme", { value: "light" });
    expect([(await mu.get(A, "prefs", "theme")).value, (await mu.get(B, "prefs", "theme")).value]).toEqual([
      "dark",
      "light",
    ]);
    expect(await mu.delete(B, "prefs", "theme")).toEqual({ success: true, deleted_count: 1 });
    expect(await mu.get(B, "prefs", "theme").catch(failure)).toEqual({
      code: "NOT_FOUND",
      message: "key 'prefs/theme' not found",
    });
    expect((await mu.get(A, "prefs", "theme")).value).toBe("dark");
  });

  test("over HTTP the second organization's writes of a taken key answer 200, not 409 or 500", async () => {
    await t.services.immutable.put(B, "note", "n1", { data: "B's" });
    await t.services.mutable.put(B, "cfg", "k", { value: 1 });
    const put = await t.request("PUT", "/immutable/note/n1", { data: "A's" });
    expect([put.status, put.body.version]).toEqual([200, 1]);
    const mput = await t.request("PUT", "/mutable/cfg/k", { value: 2 });
    expect([mput.status, mput.body.value]).toEqual([200, 2]);
    expect((await t.services.mutable.get(B, "cfg", "k")).value).toBe(1);
    expect((await t.services.immutable.get(B, "note", "n1")).data).toBe("B's");
  });

  test("erasing a user in one organization leaves the same user's versions and keys in another", async () => {
    const user = { org: "acme", userId: "carol" };
    await t.services.immutable.put(A, "doc", "d1", { data: "A carol", user_id: "carol" });
    await t.services.immutable.put(B, "doc", "d1", { data: "B carol", user_id: "carol" });
    await t.services.mutable.put(A, "ns", "carol", { value: "A", user_id: "carol" });
    await t.services.mutable.put(B, "ns", "carol", { value: "B", user_id: "carol" });
    await t.services.memory.deleteAll(userScopeOf(user.org, user.userId), { cascade: true });
    expect((await t.services.immutable.get(A, "doc", "d1")).data).toBe("A carol");
    expect((await t.services.mutable.get(A, "ns", "carol")).value).toBe("A");
    expect(await t.services.immutable.get(B, "doc", "d1").catch(failure)).toEqual({
      code: "NOT_FOUND",
      message: "record 'doc/d1' not found",
    });
    expect(await t.services.mutable.get(B, "ns", "carol").catch(failure)).toEqual({
      code: "NOT_FOUND",
      message: "key 'ns/carol' not found",
    });
  });
});
