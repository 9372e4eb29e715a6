// Superseded memories under governance (SPEC §11 with §5.4): they are older versions of their
// successor's fact for vector retention, and a user's erasure removes them and their facts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { rowsOf } from "../support/store";
import { addMemory, enforce, orgPolicy, setPolicy, updateTimes } from "./app-support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const HOUR = 3_600_000;
const range = (min: number, max: number, versions: number) => ({ range: [min, max], versions });
const rows = () =>
  rowsOf<{ memory: string; superseded: number }>(
    t,
    "SELECT memory, CASE WHEN superseded_by IS NULL THEN 0 ELSE 1 END AS superseded FROM memories ORDER BY rowid",
  );
const count = async (table: string) => (await rowsOf<{ n: number }>(t, `SELECT count(*) AS n FROM ${table}`))[0]!.n;

/** Berlin → Lisbon → Porto, an hour apart, at one importance. */
async function moves(importance: number): Promise<string[]> {
  const ids: string[] = [];
  for (const text of ["I live in Berlin.", "I moved to Lisbon.", "I moved to Porto."]) {
    ids.push(await addMemory(t, text, { importance }));
    t.clock.advance(HOUR);
  }
  return ids;
}

describe("vector retention counts superseded memories as versions of the fact", () => {
  test("keeping 1 version removes the superseded memories; the current one stays", async () => {
    await moves(10); // GDPR: importance 0–20 keeps 1 version
    const result = await enforce(t);
    expect([result.versionsDeleted, result.recordsPurged]).toEqual([0, 2]);
    expect(await rows()).toEqual([{ memory: "I moved to Porto.", superseded: 0 }]);
  });

  test("keeping 3 versions keeps the whole chain; 2 keeps the newest superseded memory", async () => {
    await moves(30); // GDPR: 21–40 keeps 3
    expect((await enforce(t)).recordsPurged).toBe(0);
    await setPolicy(t, orgPolicy("GDPR", ["vector.retention.byImportance", [range(0, 100, 2)]]));
    expect((await enforce(t)).recordsPurged).toBe(1);
    expect((await rows()).map((r) => r.memory)).toEqual(["I moved to Lisbon.", "I moved to Porto."]);
  });

  test("a superseded memory's own versions count after the newer memory's, newest first", async () => {
    await setPolicy(t, orgPolicy("GDPR", ["vector.retention.byImportance", [range(0, 100, 3)]]));
    const berlin = await addMemory(t, "I live in Berlin.");
    await updateTimes(t, berlin, 2); // Berlin has versions 3 ("version 3"), 2 and 1
    await t.post("/update_memory", { user_id: "u", memory_id: berlin, memory: "I live in Berlin." });
    t.clock.advance(HOUR);
    await addMemory(t, "I moved to Lisbon.");
    // Kept: Lisbon, Berlin v4, Berlin v3; deleted: Berlin v2 and v1.
    expect((await enforce(t)).versionsDeleted).toBe(2);
    const versions = await rowsOf<{ version: number }>(t, "SELECT version FROM memory_versions ORDER BY version DESC");
    expect(versions.map((r) => r.version)).toEqual([3]);
  });

  test("simulate plans the same removals without applying them", async () => {
    await moves(10);
    const r = await t.post("/governance/simulate", {});
    expect(r.status).toBe(200);
    expect(r.body.recordsAffected).toBeGreaterThanOrEqual(2);
    expect(await rows()).toHaveLength(3);
  });
});

describe("erasure", () => {
  test("delete_all with cascade removes superseded memories and every stored fact of the user", async () => {
    await moves(50);
    await addMemory(t, "I have a dog named Rex.");
    const r = await t.post("/delete_all_memories", { user_id: "u", cascade: true });
    expect(r.body.deleted_count).toBe(4);
    expect(await count("memories")).toBe(0);
    expect(await count("memory_facts")).toBe(0);
  });

  test("deleting one memory removes its facts with it", async () => {
    const rex = await addMemory(t, "I have a dog named Rex.");
    await t.request("DELETE", `/delete_memory?user_id=u&memory_id=${rex}`);
    expect(await count("memory_facts")).toBe(0);
  });
});
