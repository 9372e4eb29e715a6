// What keyword evidence (search/keyword-evidence.ts) reads from every store engine: each word's memories
// in the user's own index, stemmed as the engine stems; the user's memory count; the user's vocabulary for
// typo corrections and each term's memories; which candidates the visibility filter lets through.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { NewMemory } from "~/store/store";
import type { RepoEngine } from "./repos.contract";
import { newMemory, NOW, owner } from "../support/memory-rows";

const memory = (user: string, text: string, i: number, o: Partial<NewMemory> = {}): NewMemory =>
  newMemory(`te${i}`, text, { user_id: user, created_at: NOW + i, ...o });

export function termEvidenceContract(name: string, open: () => Promise<RepoEngine>): void {
  describe(`term evidence: ${name}`, () => {
    let e: RepoEngine;
    let row: number[] = [];
    const TEXTS: [string, string, Partial<NewMemory>?][] = [
      ["u", "We walked the dog by the river"],
      ["u", "The river flooded in March"],
      ["v", "I walk my dog every day"],
      ["u", "Penicillin allergy, penicillin again"],
      ["u", "A pencil on the desk"],
      ["v", "penguins"],
      ["u", "an expired river note", { expires_at: NOW - 1 }],
    ];
    beforeAll(async () => {
      e = await open();
      row = await e.tx(async (r) => {
        const out: number[] = [];
        for (const [i, [user, text, o]] of TEXTS.entries()) out.push(await r.memories.insert(memory(user, text, i, o)));
        return out;
      });
    }, 60_000);
    afterAll(() => e?.close());

    test("finds each word's memories of that user only, stemmed as the index stems, visible or not", async () => {
      expect(await e.tx((r) => r.search.termDocs(owner("u"), ["walking", "river", "absent", 'bad"word']))).toEqual({
        docs: 5,
        rowids: [[row[0]!], [row[0]!, row[1]!, row[6]!], [], []],
      });
      expect(await e.tx((r) => r.search.termDocs(owner("nobody"), ["walk"]))).toEqual({ docs: 0, rowids: [[]] });
    });

    test("lists the user's vocabulary by first letters, as index terms, and each term's memories", async () => {
      const pen = await e.tx((r) => r.search.vocabulary(owner("u"), "pen", 100));
      expect(pen).toContain("penicillin");
      expect(pen.some((t) => t.startsWith("pencil"))).toBe(true);
      expect(pen.some((t) => t.startsWith("pengu"))).toBe(false); // another user's word
      expect(await e.tx((r) => r.search.vocabulary(owner("u"), "pen", 1))).toHaveLength(1);
      expect(await e.tx((r) => r.search.vocabulary(owner("u"), "x-y", 10))).toEqual([]);
      expect(await e.tx((r) => r.search.indexTermDocs(owner("u"), ["penicillin", "nothing"]))).toEqual([[row[3]!], []]);
      expect(await e.tx((r) => r.search.indexTermDocs(owner("v"), ["penicillin"]))).toEqual([[]]);
    });

    test("lets through the first n visible candidates, in the order given", async () => {
      const filter = { org: "default", userId: "u", sessionId: "", now: NOW };
      const order = [6, 5, 4, 3, 2, 1, 0].map((i) => row[i]!);
      const shown = [4, 3, 1, 0].map((i) => row[i]!);
      expect(await e.tx((r) => r.search.visible(filter, order, 2))).toEqual(shown.slice(0, 2));
      expect(await e.tx((r) => r.search.visible(filter, order, 100))).toEqual(shown);
      expect(await e.tx((r) => r.search.visible({ ...filter, userId: "w" }, order, 5))).toEqual([]);
      expect(await e.tx((r) => r.search.visible(filter, [], 5))).toEqual([]);
    });
  });
}
