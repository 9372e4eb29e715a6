// When the typo word list is read (search.service.ts): not while a server starts, yet never after a search
// that needs it; and where: on a thread of its own (src/words-worker.ts). "cape" is one edit from the user's
// "cake": only the list says it is a real word.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SearchService } from "~/search/search.service";
import { installBuiltinModel } from "~/search/model/builtin-model";
import { readKnownWordsOffThread } from "~/search/model/known-words";
import { readKnownWords } from "~/search/model/word-list";
import { silentLogger } from "~/shared/logger";
import { buildTestApp, type TestApp } from "../support/app";
import { testModelsDir } from "../support/preload";

const WORDS_WORKER = new URL("../../src/words-worker.ts", import.meta.url).href;
const ECHO_WORKER = new URL("./fixtures/words-worker-echo.ts", import.meta.url).href;

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
  await app.post("/add_memories", { user_id: "hannah", memory: "Baked a chocolate cake for the party" });
});
afterAll(() => app.close());

const filter = () => ({ org: "default", userId: "hannah", sessionId: "", now: app.clock.now() });
const found = async (search: SearchService, query: string) => (await search.rank(filter(), query, 10)).length;

function gatedList() {
  let reads = 0;
  let open!: (words: ReadonlySet<string>) => void;
  const words = new Promise<ReadonlySet<string>>((resolve) => (open = resolve));
  const read = () => {
    reads++;
    return words;
  };
  return { read, reads: () => reads, open };
}

describe("the typo word list", () => {
  test("without it, cape is taken for a typo of the user's cake", async () => {
    const search = new SearchService(app.services.store, null, silentLogger(), {}, async () => null);
    expect(await found(search, "cape")).toBe(1);
  });

  test("is not read while the search service is built", () => {
    const list = gatedList();
    new SearchService(app.services.store, null, silentLogger(), {}, list.read);
    expect(list.reads()).toBe(0);
  });

  test("is read once the model has loaded", async () => {
    const list = gatedList();
    await new SearchService(app.services.store, null, silentLogger(), {}, list.read).start();
    expect(list.reads()).toBe(1);
  });

  test("a search that arrives before it is read waits for it, and cape is then a real word", async () => {
    const list = gatedList();
    const search = new SearchService(app.services.store, null, silentLogger(), {}, list.read);
    const searches = [found(search, "cape"), found(search, "cape")];
    list.open(new Set(["cape"]));
    expect(await Promise.all(searches)).toEqual([0, 0]);
    expect(list.reads()).toBe(1);
  });
});

describe("the typo word list is read on a thread of its own", () => {
  test("the worker answers the model's whole words, folded, as reading the model on this thread does", async () => {
    const dir = await installBuiltinModel(testModelsDir);
    const words = await readKnownWordsOffThread(WORDS_WORKER, dir);
    expect(words).toEqual(new Set(readKnownWords(dir).split("\n")));
    expect([words.has("cape"), words.has("cake"), words.size > 50_000]).toEqual([true, true, true]);
    // Whole words only: no ##pieces, no [SPECIAL] tokens, no digits.
    expect([...words].filter((w) => !/^\p{L}+$/u.test(w))).toEqual([]);
  });

  test("the words are the worker's answer, one a line: this thread does not read the model", async () => {
    expect(await readKnownWordsOffThread(ECHO_WORKER, "alpha\nbeta")).toEqual(new Set(["alpha", "beta"]));
  });

  test("an error the worker answers rejects the read with the worker's message", async () => {
    await expect(readKnownWordsOffThread(ECHO_WORKER, "missing")).rejects.toThrow("no tokenizer.json in missing");
  });

  test("a worker that cannot start rejects the read", async () => {
    await expect(
      readKnownWordsOffThread(new URL("./fixtures/no-such-worker.ts", import.meta.url).href, "x"),
    ).rejects.toThrow();
  });
});
