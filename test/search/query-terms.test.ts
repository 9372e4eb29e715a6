import { describe, expect, test } from "bun:test";
import { MAX_TERMS, queryTerms, withoutClitics } from "~/search/query-terms";
import { fold, stem } from "~/search/stem";

const terms = (q: string) => queryTerms(q).map((t) => t.term);

describe("queryTerms", () => {
  test("keeps the meaningful words as index terms, without stopwords", () => {
    expect(terms("Who is my boss?")).toEqual(["boss"]);
    expect(terms("When does the minivan need an oil change")).toEqual(["minivan", "need", "oil", "chang"]);
  });

  test("leaves out the clitics of contractions and the verbs negated with n't", () => {
    expect(withoutClitics("what's Dana's role; can't, hasn't, won’t; we're I'd")).toBe("what Dana role;  ,  ,  ; we I");
    expect(terms("what's Dana's role")).toEqual(["dana", "role"]);
    expect(terms("why can't I sleep")).toEqual(["sleep"]);
    expect(terms("who hasn't paid their bill")).toEqual(["paid", "bill"]);
  });

  test("leaves out single letters but keeps single digits", () => {
    expect(terms("s t x room 5")).toEqual(["room", "5"]);
  });

  test("keeps one entry per index term, the first word that gave it", () => {
    expect(queryTerms("walks walking walk")).toEqual([{ word: "walks", term: "walk" }]);
  });

  test("folds case and diacritics like the index", () => {
    expect(queryTerms("Café Über")).toEqual([
      { word: "café", term: "cafe" },
      { word: "über", term: "uber" },
    ]);
  });

  test("looks up at most MAX_TERMS terms and no word longer than 64 characters", () => {
    const many = Array.from({ length: MAX_TERMS + 5 }, (_, i) => `word${i}`).join(" ");
    expect(queryTerms(many)).toHaveLength(MAX_TERMS);
    expect(terms(`${"x".repeat(65)} kept`)).toEqual(["kept"]);
  });
});

describe("stem", () => {
  test("is the index's Porter stem of the folded word", () => {
    expect([stem("Penicillin"), stem("walking"), stem("Hargrove"), stem("odyssey"), stem("at")]).toEqual([
      "penicillin",
      "walk",
      "hargrov",
      "odyssei",
      "at",
    ]);
    expect(fold("Torstraße Ünïcödé")).toBe("torstraße unicode");
  });
});
