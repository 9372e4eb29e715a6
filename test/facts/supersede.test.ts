// The pure supersede decision: which live facts a new memory's claims end, what it stores, and
// when an older memory is superseded (every fact it stated has ended).
import { describe, expect, test } from "bun:test";
import type { Claim } from "~/facts/fact-claims";
import { decide, supersededMemories, type StoredFact } from "~/facts/supersede";

const fact = (id: number, memoryId: string, attribute: string, key: string, more: Partial<StoredFact> = {}) => ({
  id,
  memoryId,
  subject: "user",
  attribute,
  key,
  qualifier: null,
  negative: false,
  ended: false,
  ...more,
});
const claim = (attribute: string, value: string, op: Claim["op"] = "set", more: Partial<Claim> = {}): Claim => ({
  subject: "user",
  attribute,
  value,
  op,
  ...more,
});

describe("decide", () => {
  test("a new value of a one-value attribute ends the old one and is stored", () => {
    const d = decide([claim("home", "Lisbon")], [fact(1, "a", "home", "berlin")]);
    expect(d.ends).toEqual([1]);
    expect(d.facts).toEqual([
      { subject: "user", attribute: "home", value: "Lisbon", key: "lisbon", qualifier: null, negative: false },
    ]);
  });

  test("the same value again ends nothing", () => {
    expect(decide([claim("home", "Berlin")], [fact(1, "a", "home", "berlin")]).ends).toEqual([]);
  });

  test("another subject's value ends nothing", () => {
    expect(
      decide([claim("home", "Rome", "set", { subject: "rel:sister" })], [fact(1, "a", "home", "berlin")]).ends,
    ).toEqual([]);
  });

  test("a list adds: a second allergy ends nothing", () => {
    expect(decide([claim("allergy", "shellfish")], [fact(1, "a", "allergy", "peanut")]).ends).toEqual([]);
  });

  test("an end removes that value only and is kept as a negative fact", () => {
    const d = decide(
      [claim("allergy", "peanuts", "end")],
      [fact(1, "a", "allergy", "peanut"), fact(2, "a", "allergy", "latex")],
    );
    expect(d.ends).toEqual([1]);
    expect(d.facts.map((f) => [f.key, f.negative])).toEqual([["peanut", true]]);
  });

  test("'used to' ends the value and stores nothing", () => {
    const d = decide(
      [claim("home", "Berlin", "past")],
      [fact(1, "a", "home", "berlin"), fact(2, "b", "home", "lisbon")],
    );
    expect(d).toEqual({ ends: [1], facts: [] });
  });

  test("an end of any value narrows by its qualifier", () => {
    const live = [
      fact(1, "a", "pet", "kiwi", { qualifier: "parrot" }),
      fact(2, "a", "pet", "rex", { qualifier: "dog" }),
    ];
    expect(decide([claim("pet", "*", "end", { qualifier: "parrot" })], live).ends).toEqual([1]);
  });

  test("stating a value again ends the statement that it did not hold", () => {
    expect(decide([claim("home", "Dublin")], [fact(1, "a", "home", "dublin", { negative: true })]).ends).toEqual([1]);
  });

  test("a switch ends the value it names and the others of its kind", () => {
    const live = [
      fact(1, "a", "tool", "windows", { qualifier: "os" }),
      fact(2, "b", "tool", "vim", { qualifier: "editor" }),
      fact(3, "c", "favourite:editor", "vs-code"),
    ];
    expect(decide([claim("tool", "macOS", "switch", { qualifier: "os" })], live).ends).toEqual([1]);
    expect(decide([claim("tool", "Neovim", "switch", { replaces: "VS Code" })], live).ends).toEqual([3]);
  });

  test("a correction of a list value replaces it only when it is the one value of its kind", () => {
    const one = [fact(1, "a", "pet", "tom", { qualifier: "cat" })];
    const two = [...one, fact(2, "b", "pet", "felix", { qualifier: "cat" })];
    expect(decide([claim("pet", "Tim", "correct", { qualifier: "cat" })], one).ends).toEqual([1]);
    expect(decide([claim("pet", "Tim", "correct", { qualifier: "cat" })], two).ends).toEqual([]);
    expect(decide([claim("pet", "Tim", "correct", { qualifier: "cat", replaces: "Felix" })], two).ends).toEqual([2]);
  });

  test("a job title held at an employer ends with that employer", () => {
    const live = [
      fact(1, "a", "employer", "spotify"),
      fact(2, "a", "job_title", "data-analyst", { qualifier: "spotify" }),
    ];
    expect(decide([claim("employer", "Klarna")], live).ends.sort()).toEqual([1, 2]);
  });
});

describe("supersededMemories", () => {
  test("a memory is superseded once every positive fact it stated has ended", () => {
    const facts = [fact(1, "a", "home", "berlin"), fact(2, "a", "employer", "siemens")];
    expect(supersededMemories([1], facts)).toEqual([]);
    expect(supersededMemories([2], [{ ...facts[0]!, ended: true }, facts[1]!])).toEqual(["a"]);
  });

  test("a memory of negative facts only is superseded when they have all ended", () => {
    expect(supersededMemories([1], [fact(1, "a", "home", "dublin", { negative: true })])).toEqual(["a"]);
  });

  test("a negative fact beside an ended positive one does not keep a memory live", () => {
    const facts = [fact(1, "a", "home", "lyon"), fact(2, "a", "home", "paris", { negative: true })];
    expect(supersededMemories([1], facts)).toEqual(["a"]);
  });
});
