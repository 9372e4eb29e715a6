// What spares a sentence the fact patterns: which pattern groups its words open (cuedGroups: words cut at
// whitespace by hand, exactly where split(/\s+/) cuts them), and the text a pattern's matches need.
import { describe, expect, test } from "bun:test";
import { cuedGroups, cueIndex, type PatternGroup } from "~/facts/fact-grammar";
import { PEOPLE } from "~/facts/fact-patterns-people";
import { THINGS } from "~/facts/fact-patterns-things";
import { recogniseClaims } from "~/facts/fact-recogniser";
import { FACT_CASES } from "./fixtures/fact-updates";

const GROUPS: PatternGroup[] = [
  { cue: ["live in"], patterns: [] },
  { cue: ["manager"], patterns: [] },
  { cue: ["dog"], patterns: [] },
];
const INDEX = cueIndex(GROUPS);
const opened = (sentence: string) => cuedGroups(GROUPS, INDEX, sentence).map((g) => g.cue[0]);
/** Every character \s matches: tab, line ends, vertical tab, form feed, NBSP, Ogham, en…hair spaces, BOM… */
const SPACES = [..."\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"];

describe("the words a sentence's cue lookup sees", () => {
  for (const space of SPACES)
    test(`U+${space.codePointAt(0)!.toString(16).padStart(4, "0")} separates words, alone and repeated`, () => {
      expect(/\s/.test(space)).toBe(true);
      expect(opened(`We${space}live${space}in${space}Berlin${space}with${space + space}the${space}dog`)).toEqual([
        "live in",
        "dog",
      ]);
      expect(opened(`${space}Our${space}Manager's${space}`)).toEqual(["manager"]);
    });

  test("characters \\s does not match join words: a zero-width space, a word joiner, a hyphen", () => {
    expect(opened("we live\u200bin Berlin with the\u2060dog")).toEqual([]);
    expect(opened("live-in manager-dog")).toEqual([]);
  });

  test("punctuation at a word's edges and a possessive 's are not part of the word", () => {
    expect(opened("(Manager), “dog’s” Live in.")).toEqual(["live in", "manager", "dog"]);
    expect(opened("")).toEqual([]);
    expect(opened("   ")).toEqual([]);
  });
});

describe("a pattern's needed text", () => {
  const needing = [...PEOPLE, ...THINGS].flatMap((g) => g.patterns).filter((p) => p.need);
  const sentences = FACT_CASES.flatMap((c) => c.memories);

  test("every pattern compiles (at its first use, no longer at import)", () => {
    const all = [...PEOPLE, ...THINGS].flatMap((g) => g.patterns);
    expect(all.filter((p) => !(p.re() instanceof RegExp))).toEqual([]);
    expect(all.length).toBeGreaterThan(30);
  });

  test("every match of a pattern in the known-answer memories holds one of its needed texts", () => {
    let matches = 0;
    for (const p of needing)
      for (const text of sentences)
        for (const m of text.matchAll(new RegExp(p.re().source, p.re().flags))) {
          matches++;
          expect({
            pattern: p.re().source.slice(-60),
            match: m[0],
            holds: p.need!.some((w) => m[0].includes(w)),
          }).toEqual({
            pattern: p.re().source.slice(-60),
            match: m[0],
            holds: true,
          });
        }
    expect(matches).toBeGreaterThan(40);
  });

  test("a clause the group's cue opened but without the needed text is not searched", () => {
    // The employer pattern needs "work", "employed", "joined", "started", "job" or "hired"; "company"
    // opens its group. Its expression is swapped for one that counts its searches.
    const employer = PEOPLE.flatMap((g) => g.patterns).find((p) => p.need?.includes("employed"))!;
    const original = employer.re;
    let searches = 0;
    const counting = new (class extends RegExp {
      override exec(s: string) {
        searches++;
        return super.exec(s);
      }
    })(original().source, original().flags);
    employer.re = () => counting;
    try {
      expect(recogniseClaims("Our company is growing fast.")).toEqual([]);
      expect(searches).toBe(0);
      expect(recogniseClaims("I work for Acme, a company in Oslo.")).toEqual([
        { subject: "user", attribute: "employer", value: "Acme", op: "set" },
      ]);
      expect(searches).toBeGreaterThan(0);
    } finally {
      employer.re = original;
    }
  });
});
