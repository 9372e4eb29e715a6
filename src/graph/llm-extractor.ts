// An EntityExtractor backed by any OpenAI-compatible chat completions endpoint (JSON mode),
// whose reply is checked and normalised like the rules' output; plus a fallback wrapper. chatJson is
// the one JSON chat call (the fact recogniser uses it too).
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "~/shared/errors";
import { ExtractionBuilder, relationshipName, slug, type EntityExtractor, type Extraction } from "./extract";
import type { EntityRef } from "./graph-store";

export interface LlmExtractorOptions {
  /** e.g. https://api.openai.com/v1 (the path /chat/completions is appended). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

const SPEAKER = "@user";

const PROMPT = `You extract a knowledge graph from one memory of a user.
Reply with a JSON object only: {"entities": [...], "relationships": [...]}.
Each entity: {"type": one of "person","place","organization","technology","date","pet" (or another short lower-case noun), "name": the name as written, "properties"?: object}.
Dates: "name" is the ISO date (YYYY-MM-DD, or YYYY-MM), only for real calendar dates.
Each relationship: {"from": an entity name, "type": UPPER_SNAKE_CASE verb such as WORKS_AT, LIVES_IN, HAS_PET, USES, KNOWS, "to": an entity name, "properties"?: object}.
The speaker (I, me, my, we) is the entity named "${SPEAKER}"; do not list it in "entities".
Extract only what the text states. No prose, no code fences.`;

const Props = Type.Record(Type.String(), Type.Unknown());
const ReplySchema = Type.Object({
  entities: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), properties: Type.Optional(Props) })),
  relationships: Type.Optional(
    Type.Array(
      Type.Object({ from: Type.String(), type: Type.String(), to: Type.String(), properties: Type.Optional(Props) }),
    ),
  ),
});
type Reply = Static<typeof ReplySchema>;

export class LlmExtractor implements EntityExtractor {
  readonly name: string;

  constructor(private readonly opts: LlmExtractorOptions) {
    this.name = `llm:${opts.model}`;
  }

  async extract(text: string): Promise<Extraction> {
    return normaliseReply(await chatJson(this.opts, PROMPT, text, ReplySchema, "entity extraction service"));
  }
}

/**
 * One JSON-mode chat completion of an OpenAI-compatible endpoint, checked against `schema`; every
 * failure (network, status, not JSON, wrong shape) is AppError UNAVAILABLE naming `service`.
 */
export async function chatJson<T extends TSchema>(
  opts: LlmExtractorOptions,
  system: string,
  user: string,
  schema: T,
  service: string,
): Promise<Static<T>> {
  const down = (message: string, details?: Record<string, unknown>) =>
    new AppError("UNAVAILABLE", `${service}: ${message}`, undefined, details);
  const content = await complete(opts, system, user, down);
  let reply: unknown;
  try {
    reply = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    throw down("reply is not JSON");
  }
  if (!Value.Check(schema, reply))
    throw down("reply does not have the expected shape", {
      errors: [...Value.Errors(schema, reply)].slice(0, 3).map((e) => `${e.path}: ${e.message}`),
    });
  return reply;
}

async function complete(
  opts: LlmExtractorOptions,
  system: string,
  user: string,
  down: (message: string) => AppError,
): Promise<string> {
  const body = {
    model: opts.model,
    temperature: 0,
    response_format: { type: "json_object" },
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
  };
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
  } catch (e) {
    throw down(`request failed (${(e as Error).message})`);
  }
  if (!res.ok) throw down(`HTTP ${res.status}`);
  const json = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
  const content = json?.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw down("response has no message content");
  return content;
}

/** Same ids and names rules as the rule-based extractor; anything unusable is dropped. */
export function normaliseReply(reply: Reply): Extraction {
  const b = new ExtractionBuilder();
  const byName = new Map<string, EntityRef>();
  for (const e of reply.entities) {
    const type = slug(e.type).replace(/-/g, "_");
    const isDate = type === "date" && /^\d{4}-\d{2}(?:-\d{2})?$/.test(e.name);
    if (type === "date" && !isDate) continue;
    const ref = b.entity(type, e.name, {
      ...(isDate ? { id: e.name } : {}),
      ...(e.properties ? { properties: e.properties } : {}),
    });
    if (ref) byName.set(e.name.trim().toLowerCase(), ref);
  }
  // The speaker is added only with a relationship that keeps it, never on its own.
  const resolve = (name: string): EntityRef | "self" | null =>
    name.trim().toLowerCase() === SPEAKER ? "self" : (byName.get(name.trim().toLowerCase()) ?? null);
  for (const r of reply.relationships ?? []) {
    const [from, to, type] = [resolve(r.from), resolve(r.to), relationshipName(r.type)];
    if (!from || !to || !/^[A-Z_][A-Z0-9_]{0,63}$/.test(type)) continue;
    b.relate(from === "self" ? b.self() : from, type, to === "self" ? b.self() : to, r.properties);
  }
  return b.build();
}

/** Uses `primary` and, when it fails (e.g. the LLM is down), `fallback`, reporting the failure. */
export class FallbackExtractor implements EntityExtractor {
  readonly name: string;

  constructor(
    private readonly primary: EntityExtractor,
    private readonly fallback: EntityExtractor,
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    this.name = `${primary.name}|${fallback.name}`;
  }

  async extract(text: string): Promise<Extraction> {
    try {
      return await this.primary.extract(text);
    } catch (e) {
      this.onError(e);
      return this.fallback.extract(text);
    }
  }
}
