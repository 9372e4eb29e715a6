import { describe, expect, test } from "bun:test";
import { fold, MAX_TERMS, queryTerms, withoutClitics } from "~/search/query-terms";

const terms = queryTerms;

describe("queryTerms", () => {
  test("keeps the meaningful words as index terms, without stopwords", () => {
    expect(terms("Who is my boss?")).toEqual(["boss"]);
    expect(terms("When does the minivan need an oil change")).toEqual(["minivan", "need", "oil", "change"]);
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

  test("keeps each word once, in query order", () => {
    expect(terms("walk Walk walks")).toEqual(["walk", "walks"]);
  });

  test("folds case and diacritics like the index", () => {
    expect(terms("Café Über")).toEqual(["cafe", "uber"]);
    expect(fold("Torstraße Ünïcödé")).toBe("torstraße unicode");
  });

  test("looks up at most MAX_TERMS terms and no word longer than 64 characters", () => {
    const many = Array.from({ length: MAX_TERMS + 5 }, (_, i) => `word${i}`).join(" ");
    expect(queryTerms(many)).toHaveLength(MAX_TERMS);
    expect(terms(`${"x".repeat(65)} kept`)).toEqual(["kept"]);
  });
});
