import { describe, expect, test } from "bun:test";
import { corrections, mayBeTypo, oneEditApart } from "~/search/typos";

describe("oneEditApart", () => {
  test.each([
    ["penicilin", "penicillin"],
    ["penicillin", "penicilin"],
    ["grnat", "grant"],
    ["whitfeld", "whitfield"],
    ["xabc", "abc"],
    ["abc", "abcx"],
    ["abxc", "abyc"],
    ["same", "same"],
  ])("%s and %s are within one edit", (a, b) => expect(oneEditApart(a, b)).toBe(true));

  test.each([
    ["abcd", "badc"],
    ["ab", "abcd"],
    ["abxyc", "abyxd"],
    ["hargrve", "hargrov"],
  ])("%s and %s are not", (a, b) => expect(oneEditApart(a, b)).toBe(false));
});

describe("corrections", () => {
  test("finds the index terms one edit from the word as typed or without a common ending", () => {
    const vocabulary = ["penicillin", "hargrov", "breckenridg", "palisad", "torstrass", "pen", "pencil"];
    expect(corrections("penicilin", vocabulary)).toEqual(["penicillin"]);
    expect(corrections("hargrve", vocabulary)).toEqual(["hargrov"]); // "hargrv" + o
    expect(corrections("penicilins", vocabulary)).toEqual(["penicillin"]);
    expect(corrections("odysey", ["odyssei"])).toEqual(["odyssei"]); // Porter's y → i
    expect(corrections("emisions", ["emiss"])).toEqual(["emiss"]); // and its -ion
    expect(corrections("breckenrige", vocabulary)).toEqual(["breckenridg"]);
    expect(corrections("pallisade", vocabulary)).toEqual(["palisad"]);
    expect(corrections("torstrase", vocabulary)).toEqual(["torstrass"]);
    expect(corrections("zanzibr", vocabulary)).toEqual([]);
  });
});

describe("mayBeTypo", () => {
  const known = (w: string) => ["penicillin", "allergy"].includes(w);
  test("tries words of four or more letters that are not known words", () => {
    expect(mayBeTypo("penicilin", known)).toBe(true);
    expect(mayBeTypo("Penicillin", known)).toBe(false);
    expect(mayBeTypo("cat", known)).toBe(false);
    expect(mayBeTypo("b12x", known)).toBe(false);
  });
});
