// The rule-based extractor, one sentence per row: entities as type:id and relationships as
// from-TYPE->to, exactly (so a new false positive fails a row too).
import { describe, expect, test } from "bun:test";
import { extractWithRules, RuleExtractor, sentences } from "~/graph/extract-rules";
import { relationshipName, slug } from "~/graph/extract";
import { TECHNOLOGIES } from "~/graph/extract-lexicon";
import { aliasLiterals } from "~/graph/tech-literals";

const CASES: [string, string[], string[]][] = [
  [
    "Alice works at Google in London.",
    ["organization:google", "person:alice", "place:london"],
    ["alice-WORKS_AT->google"],
  ],
  [
    "I work at Acme Corp and I live in Berlin.",
    ["organization:acme-corp", "person:user", "place:berlin"],
    ["user-WORKS_AT->acme-corp", "user-LIVES_IN->berlin"],
  ],
  ["I'm a software engineer at Stripe.", ["organization:stripe", "person:user"], ["user-WORKS_AT->stripe"]],
  ["On Monday I joined Microsoft.", ["organization:microsoft", "person:user"], ["user-WORKS_AT->microsoft"]],
  ["She joined the University of Oslo last year.", ["organization:university-of-oslo"], []],
  [
    "Carlos works for Banco de España.",
    ["organization:banco-de-espana", "person:carlos"],
    ["carlos-WORKS_AT->banco-de-espana"],
  ],
  ["Yesterday I moved to New York.", ["place:new-york", "person:user"], ["user-LIVES_IN->new-york"]],
  ["Bob lives in San Francisco.", ["place:san-francisco", "person:bob"], ["bob-LIVES_IN->san-francisco"]],
  ["I'm from Spain originally.", ["place:spain", "person:user"], ["user-COMES_FROM->spain"]],
  ["My dog is Rex.", ["pet:rex", "person:user"], ["user-HAS_PET->rex"]],
  ["My dog's name is Biscuit", ["pet:biscuit", "person:user"], ["user-HAS_PET->biscuit"]],
  ["I have a cat named Tom.", ["pet:tom", "person:user"], ["user-HAS_PET->tom"]],
  ["Sarah's cat Milo is cute.", ["pet:milo", "person:sarah"], ["sarah-HAS_PET->milo"]],
  [
    "My sister Anna lives in Paris.",
    ["place:paris", "person:anna", "person:user"],
    ["anna-LIVES_IN->paris", "user-KNOWS->anna"],
  ],
  ["Bob is my brother.", ["person:bob", "person:user"], ["user-KNOWS->bob"]],
  [
    "We use TypeScript, Postgres and Docker at work.",
    ["technology:typescript", "technology:postgresql", "technology:docker", "person:user"],
    ["user-USES->typescript", "user-USES->postgresql", "user-USES->docker"],
  ],
  [
    "I mostly code in Python and Go.",
    ["technology:python", "technology:go", "person:user"],
    ["user-USES->python", "user-USES->go"],
  ],
  [
    "I switched to Bun from Node last year.",
    ["technology:nodejs", "technology:bun", "person:user"],
    ["user-USES->nodejs", "user-USES->bun"],
  ],
  ["I met Dr. Smith on May 7, 2023.", ["date:2023-05-07", "person:smith"], []],
  ["Deadline: 7th of March 2024, then 2024-04-01.", ["date:2024-03-07", "date:2024-04-01"], []],
  ["We visited Kyoto in March 2023.", ["date:2023-03", "place:kyoto"], []],
  ["I talked to Maria about React.", ["technology:react", "person:maria"], []],
  ["Tom Hanks said hello.", ["person:tom-hanks"], []],
  // no cue, no entity; no date that does not exist; no tech from a common word
  ["Go to the store and buy milk.", [], []],
  ["I react to things quickly.", [], []],
  ["Google is hiring.", [], []],
  ["The meeting is on 2024-02-30.", [], []],
  ["My dog is very happy today.", [], []],
];

describe("rule-based extraction", () => {
  for (const [sentence, entities, relationships] of CASES) {
    test(`"${sentence}"`, () => {
      const r = extractWithRules(sentence);
      expect(r.entities.map((e) => `${e.type}:${e.id}`)).toEqual(entities);
      expect(r.relationships.map((x) => `${x.from.id}-${x.type}->${x.to.id}`)).toEqual(relationships);
    });
  }

  test("entities keep their display name and pets their species, relations their detail", async () => {
    const r = await new RuleExtractor().extract(
      "My friend Jean-Luc works at Café Müller. My puppy is called Ziggy. I'm a data scientist at Acme Labs.",
    );
    expect(r.entities).toContainEqual({ type: "organization", id: "cafe-muller", name: "Café Müller" });
    expect(r.entities).toContainEqual({ type: "pet", id: "ziggy", name: "Ziggy", properties: { species: "puppy" } });
    expect(r.relationships).toContainEqual({
      from: { type: "person", id: "user" },
      type: "KNOWS",
      to: { type: "person", id: "jean-luc" },
      properties: { relation: "friend" },
    });
    expect(r.relationships).toContainEqual({
      from: { type: "person", id: "user" },
      type: "WORKS_AT",
      to: { type: "organization", id: "acme-labs" },
      properties: { role: "data scientist" },
    });
  });

  test("the same entity found twice in a text is listed once", () => {
    const r = extractWithRules("Alice lives in Paris. Alice works at Google. Paris is lovely.");
    expect(r.entities.map((e) => e.id)).toEqual(["paris", "alice", "google"]);
  });
});

describe("helpers", () => {
  test("slug lower-cases, drops accents and joins words with dashes", () => {
    expect(slug("  São Paulo ")).toBe("sao-paulo");
    expect(slug("O'Brien & Sons, Ltd.")).toBe("obrien-sons-ltd");
    expect(slug("東京")).toBe("東京");
  });

  test("relationship names become UPPER_SNAKE_CASE", () => {
    expect(relationshipName("works at")).toBe("WORKS_AT");
    expect(relationshipName("hasPet")).toBe("HAS_PET");
    expect(relationshipName("lives-in")).toBe("LIVES_IN");
  });

  test("sentences split at ends but not after titles or abbreviations", () => {
    expect(sentences("I met Dr. Smith. He works at Acme Inc. in Oslo!\nNew line")).toEqual([
      "I met Dr. Smith.",
      "He works at Acme Inc. in Oslo!",
      "New line",
    ]);
  });
});

describe("technologies", () => {
  test("each alternative of an alias is ruled out only by the literal it starts with", () => {
    expect(aliasLiterals("vs ?code|visual studio code")).toEqual(["vs", "visual studio code"]);
    expect(aliasLiterals("c\\+\\+|cpp")).toEqual(["c++", "cpp"]);
    expect(aliasLiterals("React|ReactJS|React\\.js")).toEqual(["react", "reactjs", "react.js"]);
    expect(aliasLiterals("(?:a|b)c")).toBeNull();
  });

  // The scan skips a technology whose literals a sentence lacks: every alias must still be found, written
  // as the lexicon has it, in upper and lower case (the aliases that are not case-sensitive), and in accented text.
  const spellings = TECHNOLOGIES.flatMap((t) =>
    t.aliases.split("|").flatMap((alias) => {
      const unescaped = alias.replace(/\\(.)/g, "$1");
      const written = [unescaped.replace(" ?", " "), unescaped.replace(" ?", "")]; // "vs ?code": "vs code", "vscode"
      const forms = t.strict ? written : written.flatMap((w) => [w, w.toUpperCase(), w.toLowerCase()]);
      return [...new Set(forms)].map((form) => [t.id, form] as const);
    }),
  );
  test(`all ${spellings.length} spellings of the lexicon's technologies are found, in ASCII and accented text`, () => {
    const missed = spellings.filter(([id, form]) =>
      [`Later we moved to ${form} at work.`, `Plus tard, café et ${form} au travail.`].some(
        (s) => !extractWithRules(s).entities.some((e) => e.type === "technology" && e.id === id),
      ),
    );
    expect(missed).toEqual([]);
  });
});
