// The response shapes /swagger documents are checked here, on real answers, instead of by Elysia on
// every request (src/http/docs.ts): each body must pass its schema and hold no field it leaves out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { buildTestApp, type TestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { AddResponse, DeleteResponse, ListResponse, MemoryResponse, SearchResponse } from "~/memory/memory.schema";
import {
  FindEntitiesResponse,
  TraverseResponse,
  UpsertEntitiesResponse,
  UpsertRelationshipsResponse,
} from "~/graph/graph.schema";
import { CleanupResponse, ExpireIdleResponse, SessionListResponse, SessionResponse } from "~/sessions/sessions.schema";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ embedder: new LetterEmbedder() });
});
afterAll(() => t.close());

/** The body when it is exactly of `schema`'s shape; otherwise the schema errors or the extra fields fail the test. */
function shaped(schema: TSchema, res: { status: number; body: unknown }) {
  expect(res.status).toBe(200);
  expect([...Value.Errors(schema, res.body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  expect(Value.Clean(schema, structuredClone(res.body))).toEqual(res.body as any);
  return res.body as any;
}

describe("documented response shapes", () => {
  test("the memory routes answer with their documented shapes", async () => {
    const added = shaped(
      AddResponse,
      await t.post("/add_memories", { user_id: "u", memory: "Ann works at Acme in Oslo", metadata: { tag: "work" } }),
    );
    await t.post("/add_memories", {
      user_id: "u",
      session_id: "s1",
      messages: [
        { role: "user", content: "Bob likes sailing" },
        { role: "user", content: "Bob owns a boat" },
      ],
    });
    const id = added.memory_ids[0];
    shaped(SearchResponse, await t.post("/search_memory", { user_id: "u", query: "where does Ann work" }));
    const page = shaped(ListResponse, await t.get("/list_memories?user_id=u&limit=1"));
    expect(page.next_cursor).toBeString();
    shaped(
      ListResponse,
      await t.get(`/list_memories?user_id=u&limit=1&cursor=${encodeURIComponent(page.next_cursor)}`),
    );
    shaped(MemoryResponse, await t.get(`/get_memory?memory_id=${id}&user_id=u`));
    shaped(
      MemoryResponse,
      await t.post("/update_memory", { memory_id: id, user_id: "u", memory: "Ann works at Acme in Bergen" }),
    );
    shaped(DeleteResponse, await t.request("DELETE", `/delete_memory?memory_id=${id}&user_id=u`));
    shaped(DeleteResponse, await t.post("/delete_all_memories", { user_id: "u" }));
  });

  test("the graph routes answer with their documented shapes", async () => {
    shaped(
      UpsertEntitiesResponse,
      await t.post("/graph/entities", {
        user_id: "g",
        entities: [
          { type: "person", id: "ann", name: "Ann", properties: { age: 40 } },
          { type: "place", id: "oslo", name: "Oslo" },
        ],
      }),
    );
    shaped(
      UpsertRelationshipsResponse,
      await t.post("/graph/relationships", {
        user_id: "g",
        relationships: [{ from: { type: "person", id: "ann" }, type: "LIVES_IN", to: { type: "place", id: "oslo" } }],
      }),
    );
    shaped(FindEntitiesResponse, await t.get("/graph/entities?user_id=g&q=ann"));
    const reached = shaped(
      TraverseResponse,
      await t.post("/graph/traverse", { user_id: "g", start: { type: "person", id: "ann" }, max_depth: 2 }),
    );
    expect(reached.entities.length).toBe(2);
  });

  test("the session routes answer with their documented shapes", async () => {
    const created = shaped(
      SessionResponse,
      await t.post("/sessions", { user_id: "s", agent_id: "chat", device: "laptop", metadata: { app: "x" } }),
    );
    const id = created.session.id;
    shaped(SessionListResponse, await t.get("/sessions?user_id=s"));
    shaped(SessionResponse, await t.get(`/sessions/${id}?user_id=s`));
    shaped(SessionResponse, await t.post(`/sessions/${id}/touch`, { user_id: "s" }));
    shaped(SessionResponse, await t.post(`/sessions/${id}/end`, { user_id: "s" }));
    shaped(ExpireIdleResponse, await t.post("/sessions/expire-idle", {}));
    shaped(CleanupResponse, await t.post("/sessions/cleanup", {}));
  });
});
