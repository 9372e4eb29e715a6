// The memory endpoints of SPEC §2.3; each handler hands its validated input to MemoryService.
import { router } from "./router";
import type { Services } from "~/services";
import { spec, type RouteSpec } from "./route-spec";
import { queryConverter } from "./query";
import { userScopeOf } from "./access";
import { ACCESS } from "~/identity/access";
import { PromoteBody } from "~/spaces/spaces.schema";
import {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  SpaceMemoryRef,
  ListMemoriesInput,
  ListResponse,
  MemoryPath,
  MemoryResponse,
  PromoteResponse,
  SearchMemoryInput,
  SearchResponse,
  SupersedeBody,
  SupersedeResponse,
  UpdateMemoryInput,
  UserQuery,
  VersionsResponse,
} from "~/memory/memory.schema";

const doc = <const S extends Omit<RouteSpec, "tag">>(s: S) => spec({ tag: "memories", ...s });
const toQuery = queryConverter(SpaceMemoryRef);

export const memoryRoutes = (s: Services) =>
  router()
    .post("/add_memories", ({ body, request }) => s.shared.add(userScopeOf(request), body), {
      ...doc({
        summary: "Store memories",
        description: "Exactly one of `memory` or `messages`. With space_id: into that shared space (its writers only).",
        body: AddMemoriesInput,
        response: AddResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userWrite,
      }),
    })
    .post(
      "/search_memory",
      async ({ body, request }) => {
        const t0 = performance.now();
        const scope = userScopeOf(request);
        const out = await s.shared.search(scope, body);
        s.logger.debug("search", {
          user: scope.userId,
          query: body.query,
          results: out.results.length,
          ms: Number((performance.now() - t0).toFixed(2)),
        });
        return out;
      },
      doc({
        summary: "Search a user's memories",
        description:
          "Hybrid semantic + keyword, best first. With spaces or include_shared: merged with the memories of those shared spaces, each result with its space_id.",
        body: SearchMemoryInput,
        response: SearchResponse,
        errors: ["UNAVAILABLE", "NOT_FOUND"],
        writes: false,
        access: ACCESS.userRead,
      }),
    )
    .get(
      "/list_memories",
      ({ query, request }) => s.shared.list(userScopeOf(request), query),
      doc({
        summary: "List recent memories",
        description:
          "Newest first; pass next_cursor as cursor for the next page. With spaces or include_shared: merged with those shared spaces' memories, one cursor over the merged order.",
        query: ListMemoriesInput,
        response: ListResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userRead,
      }),
    )
    .post(
      "/delete_all_memories",
      ({ body, request }) => s.memory.deleteAll(userScopeOf(request), body),
      doc({
        summary: "Delete all of a user's memories",
        description: "cascade: erase every layer (except what policy must retain).",
        body: DeleteAllInput,
        response: DeleteResponse,
        access: ACCESS.userWrite,
      }),
    )
    .get(
      "/get_memory",
      ({ query, request }) => s.shared.get(userScopeOf(request), query),
      doc({
        summary: "Get one memory",
        description: "With space_id: a memory of that shared space (its members only).",
        query: SpaceMemoryRef,
        response: MemoryResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userRead,
      }),
    )
    .post(
      "/update_memory",
      ({ body, request }) => s.shared.update(userScopeOf(request), body),
      doc({
        summary: "Update one memory",
        description:
          "Keeps the previous text as a version. With space_id: a memory of that shared space (its writers only; its " +
          "provenance stays). A concurrent update of the same memory: 409, retry.",
        body: UpdateMemoryInput,
        response: MemoryResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.userWrite,
      }),
    )
    .delete("/delete_memory", ({ query, request }) => s.shared.delete(userScopeOf(request), query), {
      ...doc({
        summary: "Delete one memory",
        description:
          "memory_id and user_id as query parameters (or the same fields in a JSON body); with space_id, a memory of " +
          "that shared space (its writers only). Under a policy's minimum retention: 409.",
        query: SpaceMemoryRef,
        response: DeleteResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.userWrite,
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
      ({ params, request }) => s.memory.versions(userScopeOf(request), { memory_id: params.id }),
      doc({
        summary: "A memory's versions, newest first",
        description: "Its own previous texts, then those of the memories it superseded (each with memory_id).",
        params: MemoryPath,
        query: UserQuery,
        response: VersionsResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userRead,
      }),
    )
    .post(
      "/memories/:id/supersede",
      ({ params, body, request }) => s.memory.supersede(userScopeOf(request), { memory_id: params.id }, body),
      doc({
        summary: "Replace a memory with the fact as it is now",
        description:
          "Stores `memory` as a new memory and marks this one superseded by it, in one transaction: the old one " +
          "leaves searches and lists (include_superseded shows it) and stays in the new one's versions. " +
          "A memory already superseded: 409.",
        params: MemoryPath,
        body: SupersedeBody,
        response: SupersedeResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.userWrite,
      }),
    )
    .post(
      "/memories/:id/promote",
      ({ params, body, request }) => s.shared.promote(userScopeOf(request), params.id, body),
      doc({
        summary: "Copy a memory into a shared space",
        description:
          "Copies one of the user's memories into the space (writers of the space and admins). The copy's " +
          "metadata.provenance is {user_id, agent_id, memory_id}: who promoted it, the agent that wrote the original, " +
          "the original's id (also answered as promoted_from). Same text already in the space: that memory, " +
          "with deduplicated: true.",
        params: MemoryPath,
        body: PromoteBody,
        response: PromoteResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userWrite,
      }),
    );
