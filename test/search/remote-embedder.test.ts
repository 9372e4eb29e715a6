import { afterAll, describe, expect, test } from "bun:test";
import { RemoteEmbedder } from "~/search/remote-embedder";

// A local stand-in for an OpenAI-compatible provider on a free loopback port.
const seen: { auth: string | null; body: any }[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const body = (await req.json()) as any;
    seen.push({ auth: req.headers.get("authorization"), body });
    if (body.model === "broken") return new Response("nope", { status: 500 });
    return Response.json({
      data: body.input.map((t: string, index: number) => ({ index, embedding: t === "zero" ? [0, 0, 0] : [3, 4, 0] })),
    });
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}/v1`;

describe("RemoteEmbedder", () => {
  test("probes the dimension, sends the key and model, and normalises vectors", async () => {
    const e = new RemoteEmbedder({ apiKey: "sk-test", baseUrl: base, model: "m1" });
    await e.ready();
    expect(e.dimensions).toBe(3);
    expect(e.modelId).toBe("remote:m1");
    const [v, zero] = await e.embed(["hello", "zero"]);
    expect(Array.from(v!)).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    expect(zero).toBeNull();
    expect(seen.at(-1)).toEqual({ auth: "Bearer sk-test", body: { model: "m1", input: ["hello", "zero"] } });
  });

  test("rejects with the provider's status when it fails", async () => {
    const e = new RemoteEmbedder({ apiKey: "k", baseUrl: base, model: "broken" });
    expect(e.ready()).rejects.toThrow("remote embedding provider answered 500: nope");
  });
});
