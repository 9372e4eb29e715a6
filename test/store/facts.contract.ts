// What both store engines promise for SPEC §11 (store/repos/fact-repo.ts, the supersede columns of
// memory-repo.ts): duplicates found by text key in one scope, superseded memories left out of reads
// unless asked, chains walked to the current memory, and a delete that hands links on.
import { beforeEach, afterEach, describe, expect, test } from "bun:test";
import type { NewFactRow, NewMemory, Repos } from "~/store/store";
import type { RepoEngine } from "./repos.contract";
import { newMemory, NOW, owner } from "../support/memory-rows";

/** The contracts' memory, stating facts. */
const memory = (id: string, text: string, o: Partial<NewMemory> = {}) => newMemory(id, text, { has_facts: 1, ...o });

const SCOPE = { org: "default", userId: "alice", agentId: "a1", sessionId: "" };
/** Alice's listing, superseded memories too when asked. */
const listed = (r: Repos, includeSuperseded = false) =>
  r.memories.page({ org: "default", userId: "alice", now: NOW, limit: 10, includeSuperseded });
const home = (value: string): NewFactRow => ({
  subject: "user",
  attribute: "home",
  value,
  key: value.toLowerCase(),
  qualifier: null,
  negative: false,
});

export function factsContract(name: string, open: () => Promise<RepoEngine>): void {
  describe(`fact repositories: ${name}`, () => {
    let e: RepoEngine;
    const rowids = new Map<string, number>();
    /** Berlin (m1) superseded by Porto (m2) superseded by Lisbon (m3), each with its home fact. */
    beforeEach(async () => {
      e = await open();
      await e.tx(async (r) => {
        for (const [i, [id, city]] of [
          ["m1", "Berlin"],
          ["m2", "Porto"],
          ["m3", "Lisbon"],
        ].entries()) {
          rowids.set(
            id!,
            await r.memories.insert(memory(id!, `I live in ${city}`, { created_at: NOW + i, text_key: i })),
          );
          await r.facts.insert(id!, SCOPE, [home(city!)]);
        }
        const facts = await r.facts.live(SCOPE, ["user"]);
        await r.facts.end([facts[0]!.id], "m2");
        await r.facts.end([facts[1]!.id], "m3");
        expect(await r.memories.supersede(owner("alice"), ["m1"], "m2")).toEqual(["m1"]);
        expect(await r.memories.supersede(owner("alice"), ["m2", "m1"], "m3")).toEqual(["m2"]);
      });
    }, 60_000);
    afterEach(() => e?.close());

    test("reads leave superseded memories out unless asked; the chain is walked to the current memory", async () => {
      await e.tx(async (r) => {
        const page = await listed(r);
        expect(page.map((m) => m.id)).toEqual(["m3"]);
        const all = await listed(r, true);
        expect(all.map((m) => [m.id, m.superseded_by])).toEqual([
          ["m3", null],
          ["m2", "m3"],
          ["m1", "m2"],
        ]);
        expect((await r.memories.count(owner("alice"), NOW)).n).toBe(1);
        expect((await r.memories.count(owner("alice"), NOW, undefined, true)).n).toBe(3);
        const filter = { org: "default", userId: "alice", sessionId: "", now: NOW };
        const next = await r.search.successors(filter, [rowids.get("m1")!, rowids.get("m3")!]);
        expect([...next]).toEqual([[rowids.get("m1")!, rowids.get("m3")!]]);
        expect([...(await r.memories.supersedes(owner("alice"), ["m3", "m2", "m1"]))]).toEqual([
          ["m3", ["m2"]],
          ["m2", ["m1"]],
        ]);
        expect((await r.memories.predecessors(owner("alice"), "m3")).map((m) => m.id)).toEqual(["m2", "m1"]);
        expect(await r.memories.predecessors(owner("bob"), "m3")).toEqual([]);
      });
    });

    test("sameText finds the current memory of one user, agent and session with the key", async () => {
      await e.tx(async (r) => {
        const q = { userId: "alice", agentId: "a1", sessionId: "", now: NOW };
        expect((await r.memories.sameText({ org: "default", ...q, key: 2 })).map((m) => m.id)).toEqual(["m3"]);
        expect(await r.memories.sameText({ org: "default", ...q, key: 0 })).toEqual([]); // superseded
        expect(await r.memories.sameText({ org: "default", ...q, key: 2, agentId: "a2" })).toEqual([]);
        expect(await r.memories.sameText({ org: "default", ...q, key: 2, userId: "bob" })).toEqual([]);
        expect(await r.memories.sameText({ org: "acme", ...q, key: 2 })).toEqual([]);
      });
    });

    test("live facts are the ones no memory ended; ofMemories has every one", async () => {
      await e.tx(async (r) => {
        expect((await r.facts.live(SCOPE, ["user"])).map((f) => [f.memoryId, f.value, f.ended])).toEqual([
          ["m3", "Lisbon", false],
        ]);
        expect(await r.facts.live({ ...SCOPE, agentId: "a2" }, ["user"])).toEqual([]);
        // The same user id in another organization is another user: none of these facts are its.
        expect(await r.facts.live({ ...SCOPE, org: "acme" }, ["user"])).toEqual([]);
        expect(await r.facts.recent({ ...SCOPE, org: "acme" }, 5)).toEqual([]);
        expect((await r.facts.recent(SCOPE, 5)).map((f) => f.memoryId)).toEqual(["m3"]);
        const all = await r.facts.ofMemories(["m1", "m2", "m3"]);
        expect(all.map((f) => [f.memoryId, f.key, f.negative, f.ended])).toEqual([
          ["m1", "berlin", false, true],
          ["m2", "porto", false, true],
          ["m3", "lisbon", false, false],
        ]);
      });
    });

    test("deleting the newest memory makes the one it superseded current again, with its fact", async () => {
      await e.tx((r) => r.memories.deleteByRowids([rowids.get("m3")!]));
      await e.tx(async (r: Repos) => {
        expect((await listed(r)).map((m) => m.id)).toEqual(["m2"]);
        expect((await r.facts.live(SCOPE, ["user"])).map((f) => f.memoryId)).toEqual(["m2"]);
        expect((await r.facts.ofMemories(["m3"])).length).toBe(0);
      });
    });

    test("deleting a memory in the middle of a chain hands its predecessor to its successor", async () => {
      await e.tx((r) => r.memories.deleteByRowids([rowids.get("m2")!]));
      await e.tx(async (r) => {
        const all = await listed(r, true);
        expect(all.map((m) => [m.id, m.superseded_by])).toEqual([
          ["m3", null],
          ["m1", "m3"],
        ]);
        expect((await r.facts.ofMemories(["m1"]))[0]!.ended).toBe(true);
      });
    });
  });
}
