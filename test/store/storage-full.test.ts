// A store that cannot grow answers 507 STORAGE_FULL with nothing written, and takes writes again once
// there is room: once on a real 3 MB filesystem filled to the brim, once at SQLite's own page limit.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { mountSmallDisk } from "../support/small-disk";
import { dbOf } from "../support/store";
import { userScopeOf } from "~/shared/principal";

const STORAGE_FULL = {
  success: false,
  error: "the store cannot grow (disk full or quota reached); nothing was written",
  code: "STORAGE_FULL",
};

/** Adds one memory at a time until one is refused; returns how many were acknowledged and the refusal. */
async function fillUp(
  t: TestApp,
  max: number,
): Promise<{ acknowledged: number; refusal: { status: number; body: any } }> {
  for (let i = 0; i < max; i++) {
    const r = await t.post("/add_memories", {
      user_id: "alice",
      memory: `Note ${i}: the quarterly report for the Lisbon office is due on Friday ${"and more words ".repeat(20)}`,
    });
    if (r.status !== 200) return { acknowledged: i, refusal: r };
  }
  throw new Error(`the store took ${max} memories without filling up`);
}

const total = async (t: TestApp) => (await t.get("/list_memories?user_id=alice&limit=1")).body.total;

const disk = mountSmallDisk(3);
if (disk.dir === null) console.log(`skipped: a full real disk — ${disk.reason}`);
afterAll(() => {
  if (disk.dir) disk.unmount();
});

describe.skipIf(!disk.dir)("a full disk", () => {
  test("an add answers 507 STORAGE_FULL with nothing written, and adds work again once space is freed", async () => {
    const dir = disk.dir!;
    const filler = join(dir, "filler");
    writeFileSync(filler, new Uint8Array(512 * 1024));
    const t = await buildTestApp({ options: { storeUrl: join(dir, "store.db"), searchWorkers: 0 } });
    try {
      const { acknowledged, refusal } = await fillUp(t, 5000);
      expect(refusal).toMatchObject({ status: 507, body: STORAGE_FULL });
      expect(await total(t)).toBe(acknowledged);
      rmSync(filler);
      const again = await t.post("/add_memories", { user_id: "alice", memory: "Room again: the disk has space" });
      expect(again.status).toBe(200);
      expect(await total(t)).toBe(acknowledged + 1);
    } finally {
      await t.close();
    }
  });
});

describe("SQLite's page limit", () => {
  test("an add over max_page_count answers 507 STORAGE_FULL with nothing written; a higher limit takes it", async () => {
    const t = await buildTestApp();
    try {
      const { page_count } = dbOf(t).query<{ page_count: number }, []>("PRAGMA page_count").get()!;
      dbOf(t).run(`PRAGMA max_page_count = ${page_count + 20}`);
      const { acknowledged, refusal } = await fillUp(t, 5000);
      expect(refusal).toMatchObject({ status: 507, body: STORAGE_FULL });
      expect(await total(t)).toBe(acknowledged);
      dbOf(t).run(`PRAGMA max_page_count = ${page_count + 1000}`);
      expect((await t.post("/add_memories", { user_id: "alice", memory: "Room again" })).status).toBe(200);
      expect(await total(t)).toBe(acknowledged + 1);
    } finally {
      await t.close();
    }
  });

  test("the in-process SDK throws the same STORAGE_FULL AppError", async () => {
    const t = await buildTestApp();
    try {
      const { page_count } = dbOf(t).query<{ page_count: number }, []>("PRAGMA page_count").get()!;
      dbOf(t).run(`PRAGMA max_page_count = ${page_count}`);
      let err: any;
      for (let i = 0; i < 1000 && !err; i++)
        err = await t.services.memory.add(userScopeOf("default", "alice"), { memory: `no room ${i}` }).then(
          () => undefined,
          (e) => e,
        );
      expect({ name: err.name, code: err.code, message: err.message }).toEqual({
        name: "AppError",
        code: "STORAGE_FULL",
        message: STORAGE_FULL.error,
      });
    } finally {
      await t.close();
    }
  });
});

describe("every write route on a full store", () => {
  const writes: [string, string, unknown][] = [
    ["POST", "/add_memories", { user_id: "alice", memory: "x".repeat(20_000) }],
    ["POST", "/update_memory", { memory_id: "$id", user_id: "alice", memory: "y".repeat(20_000) }],
    ["POST", "/conversations", { user_id: "alice", messages: [{ role: "user", content: "z".repeat(20_000) }] }],
    ["PUT", "/immutable/kb-article/a1", { data: { body: "k".repeat(20_000) } }],
    ["PUT", "/mutable/prefs/theme", { value: "m".repeat(20_000) }],
    ["POST", "/governance/policies", { organizationId: "default", notes: "p".repeat(20_000) }],
    ["POST", "/sessions", { user_id: "alice", metadata: { note: "s".repeat(10_000) } }],
  ];
  test.each(writes)("%s %s answers 507 STORAGE_FULL", async (method, path, body) => {
    const t = await buildTestApp();
    try {
      const first = await t.post("/add_memories", { user_id: "alice", memory: "first" });
      const payload = JSON.parse(JSON.stringify(body).replace("$id", first.body.memory_ids[0]));
      if (path === "/governance/policies") Object.assign(payload, await fullPolicy(t));
      // Full means no free page either (the memory rowids migration's table rebuild leaves a few in a new store).
      dbOf(t).run("VACUUM");
      const { page_count } = dbOf(t).query<{ page_count: number }, []>("PRAGMA page_count").get()!;
      dbOf(t).run(`PRAGMA max_page_count = ${page_count}`);
      const r = await t.request(method, path, payload);
      expect(r).toMatchObject({ status: 507, body: STORAGE_FULL });
    } finally {
      await t.close();
    }
  });
});

async function fullPolicy(t: TestApp): Promise<Record<string, unknown>> {
  return (await t.get("/governance/templates/GDPR")).body;
}
