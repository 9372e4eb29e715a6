// Embeddings from a remote OpenAI-compatible provider (POST {baseUrl}/embeddings), used when
// EMBEDDING_API_KEY is set. Failures surface as errors, never as silent keyword fallback.
import { normalise, type Embedder } from "./embedder";

export interface RemoteEmbedderOptions {
  apiKey: string;
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class RemoteEmbedder implements Embedder {
  readonly modelId: string;
  dimensions = 0;
  private readonly url: string;
  private readonly model: string;

  constructor(private readonly o: RemoteEmbedderOptions) {
    this.model = o.model ?? "text-embedding-3-small";
    this.url = `${(o.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/embeddings`;
    this.modelId = `remote:${this.model}`;
  }

  async ready(): Promise<void> {
    const [v] = await this.request(["dimension probe"]);
    if (!v) throw new Error(`remote embedding provider at ${this.url} returned no vector`);
    this.dimensions = v.length;
  }

  async embed(texts: string[]): Promise<(Float32Array | null)[]> {
    const out: (Float32Array | null)[] = [];
    for (let i = 0; i < texts.length; i += 256) out.push(...(await this.request(texts.slice(i, i + 256))));
    return out;
  }

  private async request(input: string[]): Promise<(Float32Array | null)[]> {
    const res = await (this.o.fetch ?? fetch)(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.o.apiKey}` },
      body: JSON.stringify({ model: this.model, input }),
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
    });
    if (!res.ok)
      throw new Error(`remote embedding provider answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { data?: { index: number; embedding: number[] }[] };
    if (!Array.isArray(body.data) || body.data.length !== input.length)
      throw new Error("remote embedding provider returned a malformed response");
    const out: (Float32Array | null)[] = new Array(input.length).fill(null);
    for (const d of body.data) out[d.index] = normalise(Float32Array.from(d.embedding));
    return out;
  }
}
