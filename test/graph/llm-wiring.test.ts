// EXTRACTOR_LLM_* wires an OpenAI-compatible extractor into the memory path, with the rules as fallback.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let broken = false;
const llm = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => {
    if (broken) return new Response("overloaded", { status: 503 });
    const reply = {
      entities: [{ type: "organization", name: "Initech" }],
      relationships: [{ from: "@user", type: "WORKS_AT", to: "Initech" }],
    };
    return Response.json({ choices: [{ message: { content: JSON.stringify(reply) } }] });
  },
});
afterAll(() => llm.stop(true));

let t: TestApp;
afterEach(() => t.close());
const env = { EXTRACTOR_LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1`, EXTRACTOR_LLM_MODEL: "fake" };
const traverse = (user: string) => t.post("/graph/traverse", { user_id: user, start: { type: "person", id: "user" } });

describe("LLM entity extraction", () => {
  test("fills the graph from the model's reply when configured", async () => {
    broken = false;
    t = await buildTestApp({ env });
    await t.post("/add_memories", { user_id: "u", memory: "I have been at the same company for years" });
    const r = await traverse("u");
    expect(r.body.entities.map((e: { name: string }) => e.name)).toContain("Initech");
  });

  test("falls back to the rules when the model is down, and still stores the memory", async () => {
    broken = true;
    t = await buildTestApp({ env });
    const add = await t.post("/add_memories", { user_id: "u", memory: "I work at Globex" });
    expect(add.status).toBe(200);
    expect((await traverse("u")).body.entities.map((e: { name: string }) => e.name)).toContain("Globex");
  });
});
