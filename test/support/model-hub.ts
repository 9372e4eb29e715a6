// A local HTTP server that plays a Hugging Face–style model hub for tests (ENGRAM_MODEL_HUB): it serves
// a small BERT-typed model that it builds itself (a static embedding table, the built-in model's
// architecture), answers Range requests, logs what was asked, and can cut a file short, hold a file
// halfway until the test lets it finish (a download in progress), or refuse every request until told
// otherwise (a flaky or absent network).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { staticModelFiles, type StaticModelFiles } from "~/search/model/static-embedding-model";
import { wordpieceVocab } from "~/search/model/wordpiece-tokenizer-json";

export const TINY_WORDS = [
  "dog",
  "puppy",
  "cat",
  "kitten",
  "car",
  "vehicle",
  "coffee",
  "tea",
  "doctor",
  "nurse",
  "money",
  "salary",
];
export const TINY_DIMENSIONS = 8;

/**
 * A tiny model: each word's row points along its pair's axis, so "dog" and "puppy" embed alike. `padWords`
 * filler words make the weights large enough to arrive in several chunks (Bun's fetch hands a body of a few
 * tens of KB over whole, so a connection broken inside one never shows a partial file).
 */
export function tinyModelFiles(padWords = 0): StaticModelFiles {
  const filler = Array.from({ length: padWords }, (_, i) => `filler${i}`);
  const vocab = wordpieceVocab([...TINY_WORDS, ...filler]);
  const rows = new Int8Array(vocab.length * TINY_DIMENSIONS);
  const scales = new Float32Array(vocab.length).fill(1 / 127);
  TINY_WORDS.forEach((w, i) => {
    const row = vocab.indexOf(w);
    rows[row * TINY_DIMENSIONS + Math.floor(i / 2)] = 127;
    rows[row * TINY_DIMENSIONS + ((Math.floor(i / 2) + 1) % TINY_DIMENSIONS)] = 20 + i;
  });
  return staticModelFiles({ vocab, dimensions: TINY_DIMENSIONS, rows, scales }, "test");
}

export interface HubRequest {
  path: string;
  range: string | null;
}

export interface TestHub {
  url: string;
  requests: HubRequest[];
  /** The bytes served for each file of the model. */
  files: Map<string, Uint8Array>;
  /** The next response for `file` sends only its first `bytes` bytes, then breaks the connection. */
  cutOnce(file: string, bytes: number): void;
  /**
   * The next response for `file` sends its headers and the first half of its body, then waits until the
   * returned function is called. `halfway` resolves once that half is written.
   */
  hold(file: string): { halfway: Promise<void>; release: () => void };
  /** While true, every request fails at the socket (as when offline). */
  offline: boolean;
  stop(): Promise<void>;
}

/** Serves `id` (owner/name); with `quantized`, also as onnx/model_quantized.onnx. */
export async function startTestHub(id: string, o: { quantized?: boolean; padWords?: number } = {}): Promise<TestHub> {
  const files = new Map<string, Uint8Array>();
  for (const [name, content] of Object.entries(tinyModelFiles(o.padWords)))
    files.set(name, typeof content === "string" ? new TextEncoder().encode(content) : content);
  if (o.quantized) files.set("onnx/model_quantized.onnx", files.get("onnx/model.onnx")!);
  const cuts = new Map<string, number>();
  const holds = new Map<string, { gate: Promise<void>; halfway: () => void }>();
  const prefix = `/${id}/resolve/main/`;
  // node:http, not Bun.serve: a test must be able to break a response after part of its body.
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://hub").pathname;
    const range = req.headers.range ?? null;
    hub.requests.push({ path, range });
    if (hub.offline) return req.socket.destroy();
    const name = path.slice(prefix.length);
    const file = path.startsWith(prefix) ? files.get(name) : undefined;
    if (!file) return void res.writeHead(404).end("Entry not found");
    const start = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? Number.NaN) : 0;
    if (!(start >= 0)) return void res.writeHead(400).end("bad range");
    if (start >= file.length) return void res.writeHead(416, { "content-range": `bytes */${file.length}` }).end();
    const body = file.subarray(start);
    res.writeHead(range ? 206 : 200, {
      "content-length": String(body.length),
      ...(range ? { "content-range": `bytes ${start}-${file.length - 1}/${file.length}` } : {}),
    });
    const held = holds.get(name);
    if (held) {
      holds.delete(name);
      const half = Math.floor(body.length / 2);
      res.write(body.subarray(0, half), () => held.halfway());
      return void held.gate.then(() => res.end(body.subarray(half)));
    }
    const cut = cuts.get(name);
    if (cut === undefined) return void res.end(body);
    cuts.delete(name);
    res.write(body.subarray(0, Math.max(0, cut - start)), () => req.socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hub: TestHub = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    files,
    offline: false,
    cutOnce: (file, bytes) => cuts.set(file, bytes),
    hold: (file) => {
      let release!: () => void;
      let halfway!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const written = new Promise<void>((resolve) => (halfway = resolve));
      holds.set(file, { gate, halfway });
      return { halfway: written, release };
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return hub;
}
