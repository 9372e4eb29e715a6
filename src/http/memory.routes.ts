// The memory endpoints of SPEC §2.3; each handler hands its validated input to MemoryService.
import { router } from "./router";
import type { Services } from "~/services";
import { spec, type RouteSpec } from "./route-spec";
import { queryConverter } from "./query";
import {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryPath,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  UpdateMemoryInput,
  UserQuery,
  VersionsResponse,
} from "~/memory/memory.schema";

const doc = <const S extends Omit<RouteSpec, "tag">>(s: S) => spec({ tag: "memories", ...s });
const toQuery = queryConverter(MemoryRef);

export const memoryRoutes = (s: Services) =>
  router()
    .post("/add_memories", ({ body }) => s.memory.add(body), {
      ...doc({
        summary: "Store memories",
        description: "Exactly one of `memory` or `messages`.",
        body: AddMemoriesInput,
        response: AddResponse,
      }),
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
      doc({
        summary: "Search a user's memories",
        description: "Hybrid semantic + keyword, best first.",
        body: SearchMemoryInput,
        response: SearchResponse,
        errors: ["UNAVAILABLE"],
        writes: false,
      }),
    )
    .get(
      "/list_memories",
      ({ query }) => s.memory.list(query),
      doc({
        summary: "List recent memories",
        description: "Newest first; pass next_cursor as cursor for the next page.",
        query: ListMemoriesInput,
        response: ListResponse,
      }),
    )
    .post(
      "/delete_all_memories",
      ({ body }) => s.memory.deleteAll(body),
      doc({
        summary: "Delete all of a user's memories",
        description: "cascade: erase every layer (except what policy must retain).",
        body: DeleteAllInput,
        response: DeleteResponse,
      }),
    )
    .get(
      "/get_memory",
      ({ query }) => s.memory.get(query),
      doc({ summary: "Get one memory", query: MemoryRef, response: MemoryResponse, errors: ["NOT_FOUND"] }),
    )
    .post(
      "/update_memory",
      ({ body }) => s.memory.update(body),
      doc({
        summary: "Update one memory",
        description: "Keeps the previous text as a version. A concurrent update of the same memory: 409, retry.",
        body: UpdateMemoryInput,
        response: MemoryResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
      }),
    )
    .delete("/delete_memory", ({ query }) => s.memory.delete(query), {
      ...doc({
        summary: "Delete one memory",
        description:
          "memory_id and user_id as query parameters (or the same fields in a JSON body). Under a policy's minimum retention: 409.",
        query: MemoryRef,
        response: DeleteResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
      }),
      // The fields of a JSON body join the query before validation; the query wins a clash.
      transform: ({ query, body }) => {
        const q: Record<string, unknown> = query;
        if (body && typeof body === "object" && !Array.isArray(body))
          for (const [k, v] of Object.entries(body)) q[k] ??= v;
        toQuery({ query: q });
      },
    })
    .get(
      "/memories/:id/versions",
      ({ params, query }) => s.memory.versions({ memory_id: params.id, user_id: query.user_id }),
      doc({
        summary: "A memory's versions, newest first",
        params: MemoryPath,
        query: UserQuery,
        response: VersionsResponse,
        errors: ["NOT_FOUND"],
      }),
    );
