import { describe, expect, test } from "bun:test";
import { normaliseText, textKey } from "~/shared/text-key";

describe("normaliseText", () => {
  test("case, spaces and punctuation do not make a different memory", () => {
    expect(normaliseText("  I live in   Berlin. ")).toBe("i live in berlin");
    expect(normaliseText("i live in berlin!!")).toBe("i live in berlin");
    expect(normaliseText("I live in Berlin —\n(really)")).toBe("i live in berlin really");
  });

  test("words and their order still do, and so do accents and digits", () => {
    expect(normaliseText("I live in Berlin")).not.toBe(normaliseText("In Berlin I live"));
    expect(normaliseText("café")).not.toBe(normaliseText("cafe"));
    expect(normaliseText("room 101")).not.toBe(normaliseText("room 102"));
  });

  test("compatibility forms fold: full-width letters and ligatures are the plain ones", () => {
    expect(normaliseText("Ｂｅｒｌｉｎ ﬁle")).toBe("berlin file");
  });
});

test("ASCII text normalises as the general path does, every printable character included", () => {
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
  const general = (t: string) =>
    t
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[\p{P}\p{S}]+/gu, " ")
      .replace(/\s+/gu, " ")
      .trim();
  expect(normaliseText(ascii)).toBe(general(ascii));
  // One non-ASCII letter takes the general path: the ASCII part comes out the same.
  expect(normaliseText(`${ascii}é`)).toBe(`${general(ascii)} é`);
});

describe("textKey", () => {
  test("is a safe integer, equal for equal texts", () => {
    const k = textKey("i live in berlin");
    expect(k).toBe(textKey(normaliseText("I live in Berlin.")));
    expect(k).not.toBe(textKey("i live in lisbon"));
    expect(Number.isSafeInteger(k) && k >= 0).toBe(true);
  });
});
