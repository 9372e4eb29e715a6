// EXTRACTOR_LLM_* makes the model decide supersedes on add (SPEC §11), with the rules when it fails:
// a fake OpenAI-compatible server on port 0 returns canned structured outputs per memory text.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

/** The model's canned reading of each memory; a text not listed states no fact. */
const READINGS: Record<string, unknown[]> = {
  "Home is Berlin for now.": [{ subject: "user", attribute: "home", value: "Berlin", op: "set" }],
  "These days you'll find me in Lisbon.": [{ subject: "user", attribute: "home", value: "Lisbon", op: "set" }],
};
let down = false;
const seen: { memory: string; known: unknown }[] = [];

const llm = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    if (down) return new Response("overloaded", { status: 503 });
    const body = (await req.json()) as { messages: { role: string; content: string }[] };
    const [system, user] = body.messages;
    // The same endpoint also serves the graph's entity extraction (its own prompt): no entities.
    if (!system!.content.startsWith("You read one memory")) return reply({ entities: [], relationships: [] });
    const [, memory, known] = /^Memory: (.*)\nKnown facts: (.*)$/s.exec(user!.content)!;
    seen.push({ memory: JSON.parse(memory!), known: JSON.parse(known!) });
    return reply({ facts: READINGS[JSON.parse(memory!)] ?? [] });
  },
});
const reply = (content: unknown) => Response.json({ choices: [{ message: { content: JSON.stringify(content) } }] });
afterAll(() => llm.stop(true));

let t: TestApp;
afterEach(() => t.close());
const env = { EXTRACTOR_LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1`, EXTRACTOR_LLM_MODEL: "fake" };
const add = async (memory: string) => (await t.post("/add_memories", { user_id: "u", memory })).body;

describe("supersede decisions from an LLM", () => {
  test("come from the model's reading, with the user's known facts as its context", async () => {
    down = false;
    seen.length = 0;
    t = await buildTestApp({ env });
    const [berlin] = (await add("Home is Berlin for now.")).memory_ids;
    expect((await add("These days you'll find me in Lisbon.")).superseded).toEqual([berlin]);
    expect(seen.map((s) => s.known)).toEqual([[], [{ subject: "user", attribute: "home", value: "Berlin" }]]);
  });

  test("are the model's alone while it answers: phrasings the rules would read change nothing it does not state", async () => {
    down = false;
    t = await buildTestApp({ env });
    await add("I live in Berlin.");
    expect((await add("I moved to Lisbon.")).superseded).toBeUndefined();
  });

  test("fall back to the rules when the model fails, and the memory is stored either way", async () => {
    down = true;
    t = await buildTestApp({ env });
    const [berlin] = (await add("I live in Berlin.")).memory_ids;
    const moved = await add("I moved to Lisbon.");
    expect(moved.superseded).toEqual([berlin]);
    expect((await t.get("/list_memories?user_id=u")).body.total).toBe(1);
  });
});
