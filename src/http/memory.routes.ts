// The memory endpoints of SPEC §2.3; each handler hands its validated input to MemoryService.
import { router } from "./router";
import type { Services } from "~/services";
import { checkInput } from "~/shared/validate";
import { parseQuery } from "./query";
import { routeDoc, type RouteDoc } from "./docs";
import {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  UpdateMemoryInput,
} from "~/memory/memory.schema";

const doc = (summary: string, o?: RouteDoc) => routeDoc("memories", summary, o);

export const memoryRoutes = (s: Services) =>
  router()
    .post("/add_memories", ({ body }) => s.memory.add(body), {
      body: AddMemoriesInput,
      ...doc("Store memories", { description: "Exactly one of `memory` or `messages`.", response: AddResponse }),
    })
    .post(
      "/search_memory",
      async ({ body }) => {
        const t0 = performance.now();
        const out = await s.memory.searchMemories(body);
        s.logger.debug("search", {
          user: body.user_id,
          query: body.query,
          results: out.results.length,
          ms: Number((performance.now() - t0).toFixed(2)),
        });
        return out;
      },
      {
        body: SearchMemoryInput,
        ...doc("Search a user's memories", {
          description: "Hybrid semantic + keyword, best first.",
          response: SearchResponse,
        }),
      },
    )
    .get("/list_memories", ({ query }) => s.memory.list(parseQuery(ListMemoriesInput, query)), {
      ...doc("List recent memories", {
        description: "Newest first; pass next_cursor as cursor for the next page.",
        query: ListMemoriesInput,
        response: ListResponse,
      }),
    })
    .post("/delete_all_memories", ({ body }) => s.memory.deleteAll(body), {
      body: DeleteAllInput,
      ...doc("Delete all of a user's memories", {
        description: "cascade: erase every layer (except what policy must retain).",
        response: DeleteResponse,
      }),
    })
    .get(
      "/get_memory",
      ({ query }) => s.memory.get(parseQuery(MemoryRef, query)),
      doc("Get one memory", { query: MemoryRef, response: MemoryResponse }),
    )
    .post("/update_memory", ({ body }) => s.memory.update(body), {
      body: UpdateMemoryInput,
      ...doc("Update one memory", { description: "Keeps the previous text as a version.", response: MemoryResponse }),
    })
    .delete(
      "/delete_memory",
      ({ query, body }) => s.memory.delete(checkInput(MemoryRef, { ...asObject(body), ...query })),
      {
        ...doc("Delete one memory", {
          description: "memory_id and user_id as query parameters (or a JSON body).",
          query: MemoryRef,
          response: DeleteResponse,
        }),
      },
    )
    .get(
      "/memories/:id/versions",
      ({ params, query }) => s.memory.versions(checkInput(MemoryRef, { memory_id: params.id, user_id: query.user_id })),
      {
        ...doc("A memory's versions, newest first"),
      },
    );

const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
