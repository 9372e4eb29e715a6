// focusQuery: words common to the user's memories leave the embedded query, never the whole query.
import { describe, expect, test } from "bun:test";
import { focusQuery, FOCUS_MIN_SAMPLE, refreshAfter } from "~/search/query-focus";
import { buildTestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";

const chat = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    i % 2 ? `Melanie: note ${i} about pottery` : `Caroline: entry ${i} on the parade`,
  );

describe("focusQuery", () => {
  test("drops words found in more than a quarter of the sample (the speakers' names)", () => {
    expect(focusQuery("What did Melanie paint?", chat(40))).toBe("What did  paint?");
  });

  test("keeps words that tell memories apart", () => {
    const sample = [...chat(40), "Melanie: I painted a sunrise"];
    expect(focusQuery("sunrise painting", sample)).toBe("sunrise painting");
  });

  test("leaves small samples alone: a share of a few memories means nothing", () => {
    expect(focusQuery("Melanie", chat(FOCUS_MIN_SAMPLE - 1))).toBe("Melanie");
  });

  test("keeps the query when nothing but common words (or a stray letter) would remain", () => {
    expect(focusQuery("Caroline's?", chat(40))).toBe("Caroline's?");
    expect(focusQuery("Melanie Caroline", chat(40))).toBe("Melanie Caroline");
  });
});

/** Records the texts it embeds: here, the focused text of each search. */
class RecordingEmbedder extends LetterEmbedder {
  texts: string[] = [];
  override async embed(texts: string[]) {
    this.texts.push(...texts);
    return super.embed(texts);
  }
}

describe("a user's common words in the search service", () => {
  test("are read again once a tenth of their sample has been written, not after every write", async () => {
    const embedder = new RecordingEmbedder();
    const t = await buildTestApp({ embedder });
    const add = (texts: string[]) =>
      t.post("/add_memories", { user_id: "u", messages: texts.map((content) => ({ role: "user", content })) });
    const embedded = async (query: string) => {
      embedder.texts = [];
      expect((await t.post("/search_memory", { user_id: "u", query })).status).toBe(200);
      return embedder.texts;
    };
    // Melanie in 10 of 39 memories: a share of 0.256, just over FOCUS_MAX_SHARE; a re-read after
    // 3 more memories would find 10 of 42 (0.238) and keep her in the query.
    await add([
      ...Array.from({ length: 10 }, (_, i) => `Melanie: note ${i} about pottery`),
      ...Array.from({ length: 29 }, (_, i) => `entry ${i} on the parade`),
    ]);
    expect(await embedded("What did Melanie paint?")).toEqual(["What did  paint?"]);
    expect(refreshAfter(39)).toBe(4);
    await add(["plain note a", "plain note b", "plain note c"]);
    expect(await embedded("Did Melanie paint?")).toEqual(["Did  paint?"]); // 3 writes: not read again
    await add(["plain note d"]);
    expect(await embedded("Has Melanie painted?")).toEqual(["Has Melanie painted?"]); // 4: read again, 10 of 43
    await t.close();
  });
});
