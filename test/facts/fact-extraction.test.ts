import { afterEach, describe, expect, test } from "bun:test";
import { classify, RuleFactExtractor } from "~/facts/fact-extractor";
import { buildTestApp, type TestApp } from "../support/app";

describe("classify", () => {
  const cases: [string, string | null, number | null][] = [
    ["Please remember that my passport expires in March.", "explicit", 0.95],
    ["My name is Dana.", "identity", 0.95],
    ["I'm allergic to shellfish.", "health", 0.95],
    ["I really love hiking in the Alps.", "preference", 0.9],
    ["I live in Lisbon now.", "location", 0.9],
    ["My sister works as a nurse.", "relationship", 0.85],
    ["I am a backend engineer.", "identity", 0.85],
    ["I drive an old Volvo.", "possession", 0.8],
    ["I plan to learn Rust this year.", "plan", 0.75],
    ["The weather was awful today.", "statement", 0.4],
    ["What do you think about Rust?", null, null],
    ["Thanks!", null, null],
    ["ok sure", null, null],
  ];
  for (const [sentence, kind, confidence] of cases) {
    test(`"${sentence}" → ${kind ?? "no fact"}`, () => {
      const f = classify(sentence);
      expect(f === null ? null : ([f.kind, f.confidence] as unknown[])).toEqual(
        kind === null ? null : [kind, confidence],
      );
    });
  }

  test("only the user's turns yield facts, each once", async () => {
    const facts = await new RuleFactExtractor().extract([
      { role: "user", content: "I love jazz. I love jazz." },
      { role: "assistant", content: "I love jazz too, and I live on a server." },
    ]);
    expect(facts).toEqual([{ text: "I love jazz.", confidence: 0.9, kind: "preference" }]);
  });
});

describe("add_memories with fact extraction", () => {
  let t: TestApp;
  afterEach(() => t.close());
  const conversation = [
    { role: "user", content: "Hi there! I'm vegetarian. The traffic was bad." },
    { role: "assistant", content: "Noted. Any other preferences?" },
    { role: "user", content: "I prefer window seats on flights." },
  ];

  test("with MCP_EXTRACT_FACTS on, stores the facts above the threshold instead of the messages", async () => {
    t = await buildTestApp({ env: { MCP_EXTRACT_FACTS: "true" } });
    const r = await t.post("/add_memories", { user_id: "u", messages: conversation, metadata: { project: "travel" } });
    expect(r.status).toBe(200);
    expect(r.body.memory_ids).toHaveLength(2);
    const list = await t.get("/list_memories?user_id=u");
    expect(list.body.results.map((m: any) => [m.memory, m.metadata]).sort()).toEqual([
      [
        "I prefer window seats on flights.",
        { project: "travel", role: "user", fact_kind: "preference", fact_confidence: 0.9 },
      ],
      ["I'm vegetarian.", { project: "travel", role: "user", fact_kind: "health", fact_confidence: 0.95 }],
    ]);
    const conversations = await t.get("/conversations?user_id=u");
    expect(conversations.body.results[0].message_count).toBe(3);
  });

  test("MCP_FACT_MIN_CONFIDENCE sets the threshold", async () => {
    t = await buildTestApp({ env: { MCP_EXTRACT_FACTS: "true", MCP_FACT_MIN_CONFIDENCE: "0.3" } });
    const r = await t.post("/add_memories", { user_id: "u", messages: conversation });
    expect(r.body.memory_ids).toHaveLength(3);
  });

  test("auto_extract_facts turns extraction on or off for one call", async () => {
    t = await buildTestApp();
    expect((await t.post("/add_memories", { user_id: "u", messages: conversation })).body.memory_ids).toHaveLength(3);
    expect(
      (await t.post("/add_memories", { user_id: "v", messages: conversation, auto_extract_facts: true })).body
        .memory_ids,
    ).toHaveLength(2);
  });

  test("a conversation without any fact stores no memory but keeps the conversation", async () => {
    t = await buildTestApp({ env: { MCP_EXTRACT_FACTS: "true" } });
    const r = await t.post("/add_memories", { user_id: "u", messages: [{ role: "user", content: "Thanks!" }] });
    expect(r.body).toEqual({ success: true, memory_ids: [] });
    expect((await t.get("/conversations?user_id=u")).body.total).toBe(1);
  });

  test("programmatic autoExtract false means manual only", async () => {
    t = await buildTestApp({ options: { factExtraction: { enabled: true, autoExtract: false } } });
    expect((await t.post("/add_memories", { user_id: "u", messages: conversation })).body.memory_ids).toHaveLength(3);
    expect(
      (await t.post("/add_memories", { user_id: "u", messages: conversation, auto_extract_facts: true })).body
        .memory_ids,
    ).toHaveLength(2);
  });
});
