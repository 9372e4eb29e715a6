// The repository contracts on the PostgreSQL store, as the app's role (row-level security applies), and
// the one promise only a store with truly concurrent write transactions must keep by locking.
import { describe, expect, test } from "bun:test";
import { owner } from "../../support/memory-rows";
import { repoContract, type RepoEngine } from "../repos.contract";
import { factsContract } from "../facts.contract";
import { termEvidenceContract } from "../term-evidence.contract";
import { freshStore, postgresSkip } from "../../support/postgres";
import type { Repos } from "~/store/store";

const openStore = () => freshStore("repos", 4);
const open = async (): Promise<RepoEngine> => {
  const { store, close } = await openStore();
  return { tx: (fn) => store.write(fn), close };
};

if (postgresSkip) describe.skip(`repositories: PostgreSQL (skipped: ${postgresSkip})`, () => {});
else {
  repoContract("PostgreSQL", open);
  factsContract("PostgreSQL", open);
  termEvidenceContract("PostgreSQL", open);

  test("two transactions adding the same text at once: the second finds the first's memory (SPEC §11)", async () => {
    const { store, close } = await openStore();
    try {
      const q = { org: "default", userId: "u", agentId: "a", sessionId: "", key: 42, now: 1 };
      const gate = () => {
        let open!: () => void;
        return { opened: new Promise<void>((r) => (open = r)), open: () => open() };
      };
      const [firstChecked, secondChecking] = [gate(), gate()];
      /** Checks for a duplicate, then stores the memory when there is none. */
      const add = async (r: Repos, id: string, checked?: () => void, hold?: Promise<void>) => {
        const same = await r.memories.sameText(q);
        checked?.();
        await hold; // the first keeps its transaction open until the second is checking too
        if (same.length) return same[0]!.id;
        await r.memories.insert({
          id,
          org_id: "default",
          user_id: "u",
          agent_id: "a",
          session_id: "",
          memory: "I live in Berlin",
          metadata: "{}",
          importance: 50,
          source_type: "tool",
          expires_at: null,
          conversation_ref: null,
          immutable_ref: null,
          created_at: 1,
          retain_until: null,
          text_key: 42,
        });
        return id;
      };
      const first = store.write((r) => add(r, "m1", firstChecked.open, secondChecking.opened));
      // The second checks once the first has checked and before it commits: both transactions are open.
      await firstChecked.opened;
      const second = store.write((r) => {
        secondChecking.open();
        return add(r, "m2");
      });
      expect(await Promise.all([first, second])).toEqual(["m1", "m1"]);
      expect(await store.read((r) => r.memories.countForUser(owner("u")))).toBe(1);
    } finally {
      await close();
    }
  }, 60_000); // the first store of a run may start the server (initdb: seconds on a busy machine)
}
