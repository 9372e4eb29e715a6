// Which pattern groups a sentence opens (cuedGroups): its words are cut at whitespace by hand, and must be
// cut exactly where split(/\s+/) cuts them, or a cue word glued to a space the regex knows goes unseen.
import { describe, expect, test } from "bun:test";
import { cuedGroups, cueIndex, type PatternGroup } from "~/facts/fact-grammar";

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
