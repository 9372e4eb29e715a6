// focusQuery: words common to the user's memories leave the embedded query, never the whole query.
import { describe, expect, test } from "bun:test";
import { focusQuery, FOCUS_MIN_SAMPLE } from "~/search/query-focus";

const chat = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? `Melanie: note ${i} about pottery` : `Caroline: entry ${i} on the parade`));

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
