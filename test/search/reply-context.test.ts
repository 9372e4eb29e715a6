// Reply context: a ranked question passes its score on to the reply stored right after it in the same
// conversation (user, agent, session, within the reply window), as a noisy OR (relevance.ts withReply).
import { afterEach, describe, expect, test } from "bun:test";
import { isQuestion, REPLY_SHARE, REPLY_WINDOW_MS, replies } from "~/search/reply-context";
import { relevance, withReply } from "~/search/relevance";
import { buildTestApp, type TestApp } from "../support/app";
import { dbOf } from "../support/store";
import { EVERY_ROW } from "~/shared/store-scope";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("isQuestion", () => {
  test("a text ending with a question, trailing [annotations] or (notes) ignored", () => {
    expect(isQuestion("That's great! What are your pets' names?")).toBe(true);
    expect(isQuestion("What is this?  [shares a photo of a dog] ")).toBe(true);
    expect(isQuestion("Which one? (sent an image)")).toBe(true);
    expect(isQuestion("Which one? [photo] (2 files)")).toBe(true);
  });

  test("texts full of brackets take linear time (a backtracking regex needed ≈ 30 s here)", () => {
    expect(isQuestion("[x] ".repeat(50_000) + "done")).toBe(false);
    expect(isQuestion("a?" + " [x]".repeat(50_000))).toBe(true);
  });

  test("a question followed by a statement, or none at all, is not one", () => {
    expect(isQuestion("Is it? I think it is.")).toBe(false);
    expect(isQuestion("Luna and Oliver!")).toBe(false);
    expect(isQuestion("")).toBe(false);
  });
});

/** Stores one memory per text for user u (one request each, like a client streaming a chat). */
async function store(app: TestApp, texts: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const memory of texts)
    ids.push(...(await app.post("/add_memories", { user_id: "u", memory, ...extra })).body.memory_ids);
  return ids;
}

const rowid = (app: TestApp, id: string) =>
  dbOf(app).query<{ rowid: number }, [string]>("SELECT rowid FROM memories WHERE id = ?").get(id)!.rowid;
const filter = (app: TestApp, extra: { agentId?: string; sessionId?: string } = {}) => ({
  org: "default",
  userId: "u",
  sessionId: "",
  now: app.clock.now(),
  ...extra,
});

/** The reply pairs as ranking reads them, through the app's store. */
const replyContext = (app: TestApp) => ({
  replies: (f: ReturnType<typeof filter>, anchors: number[]) =>
    app.services.store.read((r) => replies(r.search, f, anchors), EVERY_ROW),
});

describe("reply pairs", () => {
  test("pairs each question with the next memory of the same conversation", async () => {
    t = await buildTestApp();
    const [q, a, statement] = await store(t, [
      "What are your pets' names?",
      "Luna and Oliver!",
      "I like tea.",
      "Sounds good",
    ]);
    const rc = replyContext(t);
    const replies = await rc.replies(
      filter(t),
      [q!, a!, statement!].map((id) => rowid(t!, id)),
    );
    expect([...(await replies)]).toEqual([[rowid(t, q!), rowid(t, a!)]]);
  });

  test("the reply must be in the same agent and session, and pass the search's filter", async () => {
    t = await buildTestApp();
    const [q] = await store(t, ["Where do you live?"]);
    await store(t, ["Another agent talking"], { agent_id: "other" });
    await store(t, ["A session memory"], { session_id: "s1" });
    const rc = replyContext(t);
    expect((await rc.replies(filter(t), [rowid(t, q!)])).size).toBe(0);
    const [a] = await store(t, ["In Lisbon"]);
    expect((await rc.replies(filter(t), [rowid(t, q!)])).get(rowid(t, q!))).toBe(rowid(t, a!));
    expect((await rc.replies(filter(t, { agentId: "someone-else" }), [rowid(t, q!)])).size).toBe(0);
  });

  test("a memory stored after the reply window is no reply, and another user's memories never are", async () => {
    t = await buildTestApp();
    const [q] = await store(t, ["Where do you live?"]);
    await t.post("/add_memories", { user_id: "v", memory: "In Porto" });
    t.clock.advance(REPLY_WINDOW_MS + 1);
    await store(t, ["In Lisbon"]);
    const rc = replyContext(t);
    expect((await rc.replies(filter(t), [rowid(t, q!)])).size).toBe(0);
    expect((await rc.replies({ ...filter(t), userId: "v" }, [rowid(t, q!)])).size).toBe(0);
  });
});

describe("search with reply context (HTTP)", () => {
  test("the answer to a matching question ranks right after it, though it shares no word with the query", async () => {
    t = await buildTestApp();
    await store(t, [
      "Melanie: I went camping with the kids last weekend.",
      "Caroline: That's awesome! What are your pets' names?",
      "Melanie: Luna and Oliver! They are so sweet.",
      "Caroline: My cat is called Bailey.",
      "Melanie: Pottery class was fun, names of glazes are hard to remember.",
    ]);
    const r = await t.post("/search_memory", {
      user_id: "u",
      query: "What are the names of Melanie's pets?",
      limit: 3,
    });
    const memories = r.body.results.map((x: { memory: string }) => x.memory);
    expect(memories.slice(0, 2)).toEqual([
      "Caroline: That's awesome! What are your pets' names?",
      "Melanie: Luna and Oliver! They are so sweet.",
    ]);
  });

  test("a reply no list ranked is read after the anchors and shown with its share of the score", async () => {
    t = await buildTestApp();
    await store(t, ["What are your pets' names?", "Luna and Oliver!"]);
    const r = await t.post("/search_memory", { user_id: "u", query: "pets names" });
    // Keyword only: the question holds every word of the query, the reply none of them.
    const question = relevance(null, 1);
    expect(r.body.results.map((x: { memory: string; score: number }) => [x.memory, x.score])).toEqual([
      ["What are your pets' names?", question],
      ["Luna and Oliver!", withReply(relevance(null, 0), question, REPLY_SHARE)],
    ]);
  });

  test("off (share 0), the reply is not found at all", async () => {
    t = await buildTestApp({ searchTuning: { replyShare: 0 } });
    await store(t, ["What are your pets' names?", "Luna and Oliver!"]);
    const r = await t.post("/search_memory", { user_id: "u", query: "pets names" });
    expect(r.body.results.map((x: { memory: string }) => x.memory)).toEqual(["What are your pets' names?"]);
  });
});
