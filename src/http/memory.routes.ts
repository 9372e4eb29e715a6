// The memory endpoints of SPEC §2.3; each handler hands its validated input to MemoryService.
import { router } from "./router";
import type { Services } from "~/services";
import type { TObject } from "@sinclair/typebox";
import { checkInput } from "~/shared/validate";
import { parseQuery, queryDoc } from "./query";
import {
  AddMemoriesInput, AddResponse, DeleteAllInput, DeleteResponse, ListMemoriesInput, ListResponse, MemoryRef,
  MemoryResponse, SearchMemoryInput, SearchResponse, UpdateMemoryInput,
} from "~/memory/memory.schema";

const doc = (summary: string, description?: string, query?: TObject) => ({
  detail: { tags: ["memories"], summary, description, ...(query ? { parameters: queryDoc(query) } : {}) },
});

export const memoryRoutes = (s: Services) =>
  router()
    .post("/add_memories", ({ body }) => s.memory.add(body), {
      body: AddMemoriesInput, response: AddResponse, ...doc("Store memories", "Exactly one of `memory` or `messages`."),
    })
    .post("/search_memory", async ({ body }) => {
      const t0 = performance.now();
      const out = await s.memory.searchMemories(body);
      s.logger.debug("search", { user: body.user_id, query: body.query, results: out.results.length, ms: Number((performance.now() - t0).toFixed(2)) });
      return out;
    }, { body: SearchMemoryInput, response: SearchResponse, ...doc("Search a user's memories", "Hybrid semantic + keyword, best first.") })
    .get("/list_memories", ({ query }) => s.memory.list(parseQuery(ListMemoriesInput, query)), {
      response: ListResponse, ...doc("List recent memories", "Newest first; pass next_cursor as cursor for the next page.", ListMemoriesInput),
    })
    .post("/delete_all_memories", ({ body }) => s.memory.deleteAll(body), {
      body: DeleteAllInput, response: DeleteResponse, ...doc("Delete all of a user's memories", "cascade: erase every layer (except what policy must retain)."),
    })
    .get("/get_memory", ({ query }) => s.memory.get(parseQuery(MemoryRef, query)), { response: MemoryResponse, ...doc("Get one memory", undefined, MemoryRef) })
    .post("/update_memory", ({ body }) => s.memory.update(body), {
      body: UpdateMemoryInput, response: MemoryResponse, ...doc("Update one memory", "Keeps the previous text as a version."),
    })
    .delete("/delete_memory", ({ query, body }) => s.memory.delete(checkInput(MemoryRef, { ...asObject(body), ...query })), {
      response: DeleteResponse, ...doc("Delete one memory", "memory_id and user_id as query parameters (or a JSON body).", MemoryRef),
    })
    .get("/memories/:id/versions", ({ params, query }) => s.memory.versions(checkInput(MemoryRef, { memory_id: params.id, user_id: query.user_id })), {
      ...doc("A memory's versions, newest first"),
    });

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
