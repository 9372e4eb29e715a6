// The LLM fact recogniser against a local OpenAI-compatible fake (port 0) returning canned structured
// outputs: what it sends, how it normalises the reply, and the rules answering when it fails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ruleRecogniser } from "~/facts/fact-recogniser";
import { FallbackRecogniser, LlmFactRecogniser } from "~/facts/llm-fact-recogniser";
import { decide } from "~/facts/supersede";
import { AppError } from "~/shared/errors";

let reply: { status: number; content: unknown } = { status: 200, content: "{}" };
const requests: any[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      requests.push(await req.json());
      return Response.json({ choices: [{ message: { content: reply.content } }] }, { status: reply.status });
    },
  });
});
afterAll(() => server.stop(true));

const llm = () => new LlmFactRecogniser({ baseUrl: `http://127.0.0.1:${server.port}/v1`, model: "tiny" });
const answer = (facts: unknown[]) => {
  reply = { status: 200, content: JSON.stringify({ facts }) };
};

describe("LLM fact recogniser", () => {
  test("sends the memory and the user's known facts in a JSON-mode chat completion", async () => {
    answer([]);
    requests.length = 0;
    await llm().recognise("Actually, it's Tacoma.", [{ subject: "user", attribute: "home", value: "Seattle" }]);
    expect(requests[0]).toMatchObject({ model: "tiny", temperature: 0, response_format: { type: "json_object" } });
    expect(requests[0].messages[1]).toEqual({
      role: "user",
      content:
        'Memory: "Actually, it\'s Tacoma."\nKnown facts: [{"subject":"user","attribute":"home","value":"Seattle"}]',
    });
  });

  test("a correction the model resolves against a known fact ends that fact", async () => {
    answer([{ subject: "user", attribute: "home", value: "Tacoma", op: "correct", replaces: "Seattle" }]);
    const claims = await llm().recognise("Actually, it's Tacoma.", []);
    const live = [
      {
        id: 7,
        memoryId: "m1",
        subject: "user",
        attribute: "home",
        key: "seattle",
        qualifier: null,
        negative: false,
        ended: false,
      },
    ];
    expect(decide(claims, live).ends).toEqual([7]);
  });

  test("subjects and attributes are normalised; claims with an unusable subject or attribute are dropped", async () => {
    answer([
      { subject: "@user", attribute: "Home", value: " Lisbon ", op: "set" },
      { subject: "rel:Sister:Anna Maria", attribute: "home", value: "Rome", op: "set" },
      { subject: "person:Tom", attribute: "pet", value: "Rex", op: "end", qualifier: "Dog" },
      { subject: "the moon", attribute: "home", value: "Mars", op: "set" },
      { subject: "user", attribute: "DROP TABLE", value: "x", op: "set" },
      { subject: "user", attribute: "diet", value: "  ", op: "set" },
    ]);
    expect(await llm().recognise("…", [])).toEqual([
      { subject: "user", attribute: "home", value: "Lisbon", op: "set" },
      { subject: "rel:sister:anna-maria", attribute: "home", value: "Rome", op: "set" },
      { subject: "person:tom", attribute: "pet", value: "Rex", op: "end", qualifier: "dog" },
    ]);
  });

  test("a reply of the wrong shape, not JSON, or an HTTP error is UNAVAILABLE", async () => {
    for (const r of [
      { status: 200, content: JSON.stringify({ facts: [{ subject: "user", op: "maybe" }] }) },
      { status: 200, content: "I think the user lives in Lisbon." },
      { status: 500, content: "{}" },
    ]) {
      reply = r;
      const err = await llm()
        .recognise("I moved to Lisbon.", [])
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("UNAVAILABLE");
      expect((err as AppError).message).toStartWith("fact recognition service: ");
    }
  });

  test("with the fallback, a failed model call is reported and the rules answer", async () => {
    reply = { status: 503, content: "{}" };
    const errors: unknown[] = [];
    const r = new FallbackRecogniser(llm(), ruleRecogniser, (e) => errors.push(e));
    expect(r.name).toBe("llm:tiny|rules");
    expect(r.readsKnown).toBe(true);
    expect(await r.recognise("I moved to Lisbon.", [])).toEqual([
      { subject: "user", attribute: "home", value: "Lisbon", op: "set" },
    ]);
    expect(errors).toHaveLength(1);
  });
});
