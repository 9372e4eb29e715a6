// A right-to-be-forgotten request leaves nothing of the user in the store's bytes (issue 15 item 7):
// no word they wrote, no id, no vector — in the database file or its WAL — from the moment the erasure
// answers, and after a clean stop; another user's data stays and is still found.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";
import { builtinEmbedder } from "../support/embedders";
import { tempDir } from "../support/server-process";

const ALICE = "alice-7f3c9e";
/** Words only Alice ever wrote, each in a different kind of record. */
const WORDS = [
  "zanzibarquux",
  "plumbagoriver",
  "xylophonist",
  "quetzalcoatlus",
  "marzipanvault",
  "obsidianharbor",
  "kumquatorchard",
  "vindaloopassword",
] as const;

let t: TestApp | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * The main file and its WAL. The WAL is read first, and may vanish once checkpointed: what it held is then in
 * the main file, read after it, so nothing is missed either way.
 */
const bytesOf = (path: string) => Buffer.concat([readIfThere(`${path}-wal`), readFileSync(path)]);

function readIfThere(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
    throw e;
  }
}

/** What of Alice the store's files still hold: her words, her id, her vectors (their first 32 bytes). */
function traces(path: string, vectors: Float32Array[]): string[] {
  const bytes = bytesOf(path);
  const found = [...WORDS, ALICE].filter((w) => bytes.includes(Buffer.from(w)));
  const vecs = vectors.filter((v) => bytes.includes(Buffer.from(v.buffer, v.byteOffset, 32))).length;
  return vecs ? [...found, `${vecs} vectors`] : found;
}

async function seedAlice(app: TestApp): Promise<string[]> {
  const texts: string[] = [];
  const add = async (memory: string, extra: Record<string, unknown> = {}) => {
    const r = await app.post("/add_memories", { user_id: ALICE, memory, ...extra });
    expect(r.status).toBe(200);
    texts.push(memory);
    return r.body.memory_ids[0] as string;
  };
  // Enough memories that the vectors are erased in bulk after the commit, not inline; interleaved with
  // another user's, so the keyword index merges them into segments the other user's entries share.
  for (let i = 0; i < 120; i++) {
    await add(`Alice note ${i}: my ${WORDS[i % 3]} is near the garden shed`);
    await app.post("/add_memories", { user_id: "bob", memory: `Bob note ${i}: the ferry leaves at nine` });
  }
  const id = await add(`The ${WORDS[3]} skeleton is in the museum`);
  await app.post("/update_memory", { memory_id: id, user_id: ALICE, memory: "The fossil moved to storage" });
  texts.push("The fossil moved to storage");
  await app.post("/add_memories", { user_id: ALICE, messages: [{ role: "user", content: `My ${WORDS[4]} pin` }] });
  texts.push(`My ${WORDS[4]} pin`);
  await app.request("PUT", "/immutable/profile/alice", { data: { note: WORDS[5] }, user_id: ALICE });
  await app.request("PUT", "/mutable/prefs/alice", { value: WORDS[6], user_id: ALICE });
  await app.post("/graph/entities", { user_id: ALICE, entities: [{ type: "place", id: "p1", name: WORDS[7] }] });
  await app.post("/sessions", { user_id: ALICE, device: "phone" });
  return texts;
}

test.each(["sqlite-vec", "portable"] as const)(
  "with the %s vector index, after a cascade erasure no word, id or vector of the user is left in the store file or its WAL",
  async (vectorIndex) => {
    const dir = tempDir("engram-erasure-bytes-");
    dirs.push(dir);
    const path = join(dir, "store.db");
    t = await buildTestApp({ options: { storeUrl: `sqlite://${path}`, vectorIndex }, embedder: builtinEmbedder() });
    const texts = await seedAlice(t);
    const vectors = (await t.services.search.embed(texts))!.vectors.filter((v): v is Float32Array => v !== null);
    expect(vectors.length).toBeGreaterThan(100);
    expect(traces(path, vectors)).toContain(ALICE);

    const r = await t.post("/delete_all_memories", { user_id: ALICE, cascade: true });
    expect(r.body).toEqual({ success: true, deleted_count: 122, retained: {} });
    expect(traces(path, vectors)).toEqual([]);

    const found = await t.post("/search_memory", { user_id: "bob", query: "ferry nine", limit: 3 });
    expect(found.body.results).toHaveLength(3);
    await t.close();
    t = undefined;
    expect(traces(path, vectors)).toEqual([]);
  },
  60_000,
);
