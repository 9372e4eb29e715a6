// The LLM extractor against a tiny local OpenAI-compatible fake (port 0): request shape,
// normalisation of the reply, and UNAVAILABLE (with the rules as fallback) when it fails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FallbackExtractor, LlmExtractor } from "~/graph/llm-extractor";
import { RuleExtractor } from "~/graph/extract-rules";
import { AppError } from "~/shared/errors";

let reply: { status: number; content: unknown } = { status: 200, content: "{}" };
const requests: { auth: string | null; body: any }[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("no", { status: 404 });
      requests.push({ auth: req.headers.get("authorization"), body: await req.json() });
      return Response.json(
        { choices: [{ message: { role: "assistant", content: reply.content } }] },
        { status: reply.status },
      );
    },
  });
});
afterAll(() => server.stop(true));

const llm = () =>
  new LlmExtractor({ baseUrl: `http://127.0.0.1:${server.port}/v1/`, apiKey: "sk-test", model: "tiny" });

async function expectUnavailable(p: Promise<unknown>): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe("UNAVAILABLE");
}

describe("LLM extractor", () => {
  test("sends a JSON-mode chat completion with the key and the text", async () => {
    reply = { status: 200, content: JSON.stringify({ entities: [], relationships: [] }) };
    requests.length = 0;
    await llm().extract("Alice works at Google.");
    expect(requests).toHaveLength(1);
    expect(requests[0]!.auth).toBe("Bearer sk-test");
    expect(requests[0]!.body).toMatchObject({
      model: "tiny",
      temperature: 0,
      response_format: { type: "json_object" },
    });
    expect(requests[0]!.body.messages[1]).toEqual({ role: "user", content: "Alice works at Google." });
  });

  test("normalises the reply: slug ids, UPPER_SNAKE relationships, the speaker as the user entity", async () => {
    reply = {
      status: 200,
      content: JSON.stringify({
        entities: [
          { type: "Person", name: "Alice Smith" },
          { type: "organization", name: "Google", properties: { industry: "tech" } },
          { type: "date", name: "2023-05-07" },
          { type: "date", name: "last week" },
          { type: "pet", name: "Rex" },
        ],
        relationships: [
          { from: "Alice Smith", type: "works at", to: "google" },
          { from: "@user", type: "hasPet", to: "Rex" },
          { from: "Alice Smith", type: "KNOWS", to: "Nobody" },
        ],
      }),
    };
    expect(await llm().extract("…")).toEqual({
      entities: [
        { type: "person", id: "alice-smith", name: "Alice Smith" },
        { type: "organization", id: "google", name: "Google", properties: { industry: "tech" } },
        { type: "date", id: "2023-05-07", name: "2023-05-07" },
        { type: "pet", id: "rex", name: "Rex" },
        { type: "person", id: "user", name: "User" },
      ],
      relationships: [
        { from: { type: "person", id: "alice-smith" }, type: "WORKS_AT", to: { type: "organization", id: "google" } },
        { from: { type: "person", id: "user" }, type: "HAS_PET", to: { type: "pet", id: "rex" } },
      ],
    });
  });

  test("accepts a reply wrapped in a code fence", async () => {
    reply = { status: 200, content: '```json\n{"entities":[{"type":"place","name":"Oslo"}]}\n```' };
    expect((await llm().extract("x")).entities).toEqual([{ type: "place", id: "oslo", name: "Oslo" }]);
  });

  test("an HTTP error, a non-JSON reply or a wrong shape is UNAVAILABLE", async () => {
    reply = { status: 500, content: "" };
    await expectUnavailable(llm().extract("x"));
    reply = { status: 200, content: "Sure! Here are the entities" };
    await expectUnavailable(llm().extract("x"));
    reply = { status: 200, content: JSON.stringify({ entities: "Alice" }) };
    await expectUnavailable(llm().extract("x"));
    reply = { status: 200, content: null };
    await expectUnavailable(llm().extract("x"));
  });

  test("an unreachable endpoint is UNAVAILABLE", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    await expectUnavailable(
      new LlmExtractor({ baseUrl: `http://127.0.0.1:${port}`, model: "m", timeoutMs: 2000 }).extract("x"),
    );
  });

  test("the fallback extractor uses the rules when the LLM fails and reports why", async () => {
    reply = { status: 503, content: "" };
    const errors: unknown[] = [];
    const extractor = new FallbackExtractor(llm(), new RuleExtractor(), (e) => errors.push(e));
    expect(extractor.name).toBe("llm:tiny|rules");
    const r = await extractor.extract("Alice works at Google.");
    expect(r.relationships).toEqual([
      { from: { type: "person", id: "alice" }, type: "WORKS_AT", to: { type: "organization", id: "google" } },
    ]);
    expect((errors[0] as AppError).code).toBe("UNAVAILABLE");
  });
});
